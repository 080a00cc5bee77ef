import { Anchor, Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../hooks/use-format';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { type CharacterCounter as Counter, remainingLevel } from '../lib/characters';

/**
 * SPEC §9: the counter shows used, per-convert and remaining characters. Near the limit the
 * remaining count is flagged in words as well as colour (WCAG 1.4.1), with the plans offered.
 */
export function CharacterCounter({
  counter,
  allowance,
}: {
  counter: Counter;
  allowance: number | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const { to } = useRouteLanguage();
  const show = (n: number) => (Number.isFinite(n) ? format.number(n) : '…');
  const level = remainingLevel(counter);
  return (
    <Group
      gap="md"
      role="status"
      aria-label={t('counter.label')}
      data-testid="character-counter"
      wrap="wrap"
    >
      <Text size="sm">
        {t('counter.used')} <strong data-testid="characters-used">{show(counter.used)}</strong>
      </Text>
      <Text size="sm">
        {t('counter.perConvert')}{' '}
        <strong data-testid="characters-per-convert">{show(counter.perConvert)}</strong>
      </Text>
      <Text size="sm" data-level={level} data-testid="remaining">
        {t('counter.remaining')}{' '}
        <strong data-testid="characters-remaining">{show(counter.remaining)}</strong>
      </Text>
      {level !== 'ok' && (
        <Group gap={6} wrap="nowrap" data-testid="remaining-warning">
          <Badge
            color={level === 'out' ? 'red.9' : 'yellow'}
            variant="filled"
            autoContrast
            radius="sm"
          >
            {t(level === 'out' ? 'feedback.atLimit' : 'feedback.nearLimit')}
          </Badge>
          <Anchor component={Link} to={to('/pricing')} size="sm">
            {t('feedback.upgrade')}
          </Anchor>
        </Group>
      )}
      {allowance !== null && (
        <Text size="sm" c="dimmed">
          {t('counter.allowanceLeft')} {show(allowance)}
        </Text>
      )}
    </Group>
  );
}
