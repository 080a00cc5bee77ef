import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../hooks/use-format';
import type { CharacterCounter as Counter } from '../lib/characters';

/** SPEC §9: the counter shows used, per-convert and remaining characters. */
export function CharacterCounter({
  counter,
  allowance,
}: {
  counter: Counter;
  allowance: number | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const show = (n: number) => (Number.isFinite(n) ? format.number(n) : '…');
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
      <Text size="sm">
        {t('counter.remaining')}{' '}
        <strong data-testid="characters-remaining">{show(counter.remaining)}</strong>
      </Text>
      {allowance !== null && (
        <Text size="sm" c="dimmed">
          {t('counter.allowanceLeft')} {show(allowance)}
        </Text>
      )}
    </Group>
  );
}
