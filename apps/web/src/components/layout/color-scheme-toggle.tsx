import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { MoonIcon, SunIcon } from '../icons';

/** Light/dark toggle; until it is used the scheme follows the system (DESIGN.md). */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size={44}
      radius="md"
      onClick={() => setColorScheme(next)}
      aria-label={`Switch to ${next} colour scheme`}
      title={`Switch to ${next} colour scheme`}
    >
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
