import { Alert, Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import {
  MESSAGES,
  PAUSE,
  PAUSE_UNITS,
  RATE_INPUT_MAX,
  RATE_INPUT_MIN,
  rateRangeMessage,
  type TagKind,
  type VoiceEffect,
} from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parsePause, parsePercent, TAG_SPECS } from '../lib/ssml-tags';
import { TAG_LABEL_KEYS } from '../lib/tag-labels';

const PERCENT = 'percentage';

interface TagValueFormProps {
  kind: TagKind;
  /** The value to start from ('1s', 'medium', '20%', 'date'). */
  initial: string;
  /** Effects the voice offers (the voice-effect menu lists only these). */
  effects: readonly VoiceEffect[];
  submitLabel: string;
  onSubmit: (value: string) => void;
}

/**
 * The value of one tag: the pause length (1..10, ms or s), a speed/volume/pitch level or
 * percentage (0..100), a say-as type, an emphasis level or a voice effect, with SPEC §5's
 * alerts word for word. Used by the toolbar to insert and by a chip to edit.
 */
export function TagValueForm({ kind, initial, effects, submitLabel, onSubmit }: TagValueFormProps) {
  const { t } = useTranslation();
  const spec = TAG_SPECS[kind];
  const label = t(TAG_LABEL_KEYS[kind]);
  const pause = parsePause(initial);
  const percent = parsePercent(initial);
  const [amount, setAmount] = useState(
    String(kind === 'pause' ? (pause?.amount ?? PAUSE.defaultValue) : (percent ?? 0)),
  );
  const [unit, setUnit] = useState<string>(pause?.unit ?? PAUSE.defaultUnit);
  const [choice, setChoice] = useState(percent === null ? initial : PERCENT);
  const number = Number.parseFloat(amount);

  let alert: string | undefined;
  let value = choice;
  if (kind === 'pause') {
    if (number > PAUSE.max) alert = MESSAGES.editor.pauseRange;
    value = `${number}${unit}`;
  } else if (kind === 'speed' || kind === 'volume' || kind === 'pitch') {
    if (choice === PERCENT) {
      if (number > RATE_INPUT_MAX || number < RATE_INPUT_MIN) alert = rateRangeMessage(kind);
      // Signed: a change from the default (SSML 1.1 reads an unsigned 20% as a fifth of it).
      value = `+${number}%`;
    }
  }
  const invalid =
    alert !== undefined ||
    ((kind === 'pause' || choice === PERCENT) && !Number.isFinite(number)) ||
    (kind === 'pause' && number < PAUSE.min);
  const options =
    kind === 'voiceEffect'
      ? effects
      : kind === 'speed' || kind === 'volume' || kind === 'pitch'
        ? [...spec.values, PERCENT]
        : spec.values;

  return (
    <Stack gap="xs" w={240}>
      {kind === 'pause' ? (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            type="number"
            inputMode="decimal"
            label={t('tags.pause')}
            min={PAUSE.min}
            max={PAUSE.max}
            value={amount}
            onChange={(event) => setAmount(event.currentTarget.value)}
            data-autofocus
          />
          <NativeSelect
            label={t('tags.unit')}
            data={[...PAUSE_UNITS]}
            value={unit}
            onChange={(event) => setUnit(event.currentTarget.value)}
          />
        </Group>
      ) : (
        <NativeSelect
          label={label}
          data={options.map((option) => ({
            value: option,
            label: option === PERCENT ? t('tags.percentage') : option,
          }))}
          value={choice}
          onChange={(event) => setChoice(event.currentTarget.value)}
          data-autofocus
        />
      )}
      {kind !== 'pause' && choice === PERCENT && (
        <TextInput
          type="number"
          inputMode="numeric"
          label={t('tags.rate', { tag: label })}
          min={RATE_INPUT_MIN}
          max={RATE_INPUT_MAX}
          value={amount}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
      )}
      {alert && (
        <Alert color="red" variant="light" p="xs" role="alert">
          {alert}
        </Alert>
      )}
      <Button size="xs" disabled={invalid} onClick={() => onSubmit(value)}>
        {submitLabel}
      </Button>
    </Stack>
  );
}
