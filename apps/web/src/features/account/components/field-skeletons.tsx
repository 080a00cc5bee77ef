import { Skeleton, Stack } from '@mantine/core';

/** Placeholders the size of a labelled input, one per field of a block (SPEC §2 "Account"). */
export function FieldSkeletons({ count }: { count: number }) {
  return (
    <Stack gap="md" aria-hidden data-testid="field-skeletons">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders that never move.
        <Stack key={index} gap={6}>
          <Skeleton height={14} width="35%" radius="sm" />
          <Skeleton height={36} radius="md" />
        </Stack>
      ))}
    </Stack>
  );
}
