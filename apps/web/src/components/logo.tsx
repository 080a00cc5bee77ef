import { Group, Text } from '@mantine/core';
import { PRODUCT_NAME } from '@parla/contract';

/** The Parla mark: a short waveform in the accent colour, and the word. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Group gap={8} wrap="nowrap" component="span">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
        <path
          d="M9 12v8M14 8v16M19 11v10M24 14v4"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
        />
      </svg>
      <Text component="span" fw={800} fz="xl" lh={1} c="var(--mantine-color-text)">
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
