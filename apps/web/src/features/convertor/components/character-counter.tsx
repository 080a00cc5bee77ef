import { Group, Text } from '@mantine/core';
import type { CharacterCounter as Counter } from '../lib/characters';

const show = (n: number) => (Number.isFinite(n) ? n : '…');

/** SPEC §9: the counter shows used, per-convert and remaining characters. */
export function CharacterCounter({
  counter,
  allowance,
}: {
  counter: Counter;
  allowance: number | null;
}) {
  return (
    <Group
      gap="md"
      role="status"
      aria-label="Characters"
      data-testid="character-counter"
      wrap="wrap"
    >
      <Text size="sm">
        Used: <strong data-testid="characters-used">{counter.used}</strong>
      </Text>
      <Text size="sm">
        Per convert:{' '}
        <strong data-testid="characters-per-convert">{show(counter.perConvert)}</strong>
      </Text>
      <Text size="sm">
        Remaining: <strong data-testid="characters-remaining">{show(counter.remaining)}</strong>
      </Text>
      {allowance !== null && (
        <Text size="sm" c="dimmed">
          Plan allowance left: {allowance}
        </Text>
      )}
    </Group>
  );
}
