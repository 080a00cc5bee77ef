import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { JOB_CHARACTER_LIMITS, PLAN_TYPES } from '@parla/contract';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../hooks/use-format';
import { usePageWords } from '../../../hooks/use-page-words';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { useSession } from '../../../lib/auth';
import { PLAN_NAME_KEYS } from '../../../lib/plan-features';

export interface CutNoticeProps {
  /** Characters kept of a paste or upload that did not fit, and how many it had. */
  kept: number;
  total: number;
  onClose: () => void;
}

/** The first plan with documents (jobs): what the notice names to those who have none. */
const DOCUMENTS_PLAN = PLAN_TYPES.find((type) => JOB_CHARACTER_LIMITS[type] > 0) ?? 'BUSINESS';

/**
 * Says how much of a paste or upload was kept and offers the plans (issue 18 item 4), and where
 * a long text goes: the Documents page, a link for a signed-in user whose plan has documents,
 * else the plan that has them (issue 33 item 7). Loaded when a text is first cut, with its
 * words, so that neither is part of the convertor's first load.
 */
export default function CutNotice({ kept, total, onClose }: CutNoticeProps) {
  const { t } = useTranslation();
  const words = usePageWords();
  const format = useFormat();
  const { to } = useRouteLanguage();
  const session = useSession();
  const profile = session.status === 'signed-in' ? session.profile : undefined;
  const documentCharacters = profile
    ? profile.user.role === 'USER'
      ? JOB_CHARACTER_LIMITS[profile.plan.type]
      : JOB_CHARACTER_LIMITS.BUSINESS
    : 0;
  return (
    <Alert
      color="yellow"
      role="status"
      withCloseButton
      closeButtonLabel={t('convertor.dismiss')}
      onClose={onClose}
      p="xs"
      data-testid="cut-notice"
    >
      <Stack gap={4}>
        <Text size="sm">
          <Trans
            i18nKey="feedback.cut"
            values={{ kept: format.number(kept), total: format.number(total) }}
            components={{ plans: <Anchor component={Link} to={to('/pricing')} /> }}
          />
        </Text>
        {words.ready && (
          <Text size="sm" data-testid="cut-documents">
            {documentCharacters > 0 ? (
              <Trans
                t={words.t}
                i18nKey="cut.documents"
                values={{ characters: format.number(documentCharacters) }}
                components={{ documents: <Anchor component={Link} to="/documents" /> }}
              />
            ) : (
              words.t('cut.documentsWith', {
                plan: t(PLAN_NAME_KEYS[DOCUMENTS_PLAN]),
                characters: format.number(JOB_CHARACTER_LIMITS[DOCUMENTS_PLAN]),
              })
            )}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
