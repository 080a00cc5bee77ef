import { Alert, Anchor } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../hooks/use-format';
import { useRouteLanguage } from '../../../hooks/use-route-language';

export interface CutNoticeProps {
  /** Characters kept of a paste or upload that did not fit, and how many it had. */
  kept: number;
  total: number;
  onClose: () => void;
}

/**
 * Says how much of a paste or upload was kept and offers the plans (issue 18 item 4). Loaded
 * when a text is first cut, so its rich-text translation (react-i18next's Trans) is not part of
 * the convertor's first load.
 */
export default function CutNotice({ kept, total, onClose }: CutNoticeProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { to } = useRouteLanguage();
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
      <Trans
        i18nKey="feedback.cut"
        values={{ kept: format.number(kept), total: format.number(total) }}
        components={{ plans: <Anchor component={Link} to={to('/pricing')} /> }}
      />
    </Alert>
  );
}
