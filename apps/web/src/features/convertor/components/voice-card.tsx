import { ActionIcon, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Language, Voice } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { PauseIcon, PlayIcon } from '../../../components/player/player-icons';
import { useVoicePreview } from '../hooks/use-voice-preview';
import { genderLabel, languageLabel, voiceLabel } from '../lib/voice-labels';

interface VoiceCardProps {
  voice: Voice;
  language: Language;
  /** Opens the picker at this voice. */
  onChange: () => void;
  /** Fetches the picker ahead of the click. */
  onPreload: () => void;
}

/**
 * The voice as a face, not a select (DESIGN.md "The first minute", issue 33 item 2): its name,
 * language, gender and engine, a play button for its sample, and "Change".
 */
export function VoiceCard({ voice, language, onChange, onPreload }: VoiceCardProps) {
  const { t, i18n } = useTranslation();
  const { playing, failed, toggle } = useVoicePreview();
  const name = voiceLabel(voice, language, i18n.language, t);
  const on = playing === voice.id;
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={t('settings.currentVoice')}>
      <Group gap="sm" wrap="nowrap">
        <ActionIcon
          variant="light"
          size={44}
          radius="xl"
          aria-label={on ? t('settings.stopVoice') : t('settings.previewVoice', { name })}
          onClick={() => toggle(voice.id)}
        >
          {on ? <PauseIcon /> : <PlayIcon />}
        </ActionIcon>
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} truncate data-testid="voice-name">
            <bdi>{name}</bdi>
          </Text>
          <Group gap={6} wrap="wrap">
            <Text size="sm" c="dimmed" component="span">
              <bdi>{languageLabel(language, i18n.language)}</bdi> ·{' '}
              <bdi>{genderLabel(voice.gender, t)}</bdi>
            </Text>
            <Badge size="sm" variant="light">
              {t(`settings.${voice.engine}`)}
            </Badge>
          </Group>
          {failed === voice.id && (
            <Text size="xs" c="red" role="alert">
              {t('voicePicker.previewFailed')}
            </Text>
          )}
        </Stack>
        <Button
          variant="light"
          h={44}
          onPointerEnter={onPreload}
          onFocus={onPreload}
          onClick={onChange}
          aria-label={`${t('settings.change')}: ${t('settings.voice')}`}
        >
          {t('settings.change')}
        </Button>
      </Group>
    </Paper>
  );
}
