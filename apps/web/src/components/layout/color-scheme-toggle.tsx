import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from '../icons';

/** Light/dark toggle; until it is used the scheme follows the system (DESIGN.md). */
export function ColorSchemeToggle() {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? t('layout.toDarkScheme') : t('layout.toLightScheme');
  return (
    <ActionIcon
      variant="default"
      size={44}
      radius="md"
      onClick={() => setColorScheme(next)}
      aria-label={label}
      title={label}
    >
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
