import { Button, Text } from '@mantine/core';
import type { Voice } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { PauseIcon, PlayIcon } from '../../../components/player/player-icons';
import { useVoicePreview } from '../hooks/use-voice-preview';

/**
 * "Listen" beside the headline (issue 33, item 1): the current voice's sample, something to
 * hear before anything to read.
 */
export function ListenButton({ voice }: { voice: Voice | undefined }) {
  const { t } = useTranslation();
  const { playing, failed, toggle } = useVoicePreview();
  const on = voice !== undefined && playing === voice.id;
  return (
    <>
      <Button
        variant="light"
        radius="xl"
        size="md"
        disabled={!voice}
        leftSection={on ? <PauseIcon size={18} /> : <PlayIcon size={18} />}
        onClick={() => voice && toggle(voice.id)}
      >
        {on ? t('convertor.stopListening') : t('convertor.listen')}
      </Button>
      {voice && failed === voice.id && (
        <Text size="sm" c="red" role="alert">
          {t('voicePicker.previewFailed')}
        </Text>
      )}
    </>
  );
}
