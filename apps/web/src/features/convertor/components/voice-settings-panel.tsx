import { Button, Group, NativeSelect, SimpleGrid, Slider, Stack, Text } from '@mantine/core';
import {
  type AudioFormat,
  ENGINES,
  type Engine,
  type Language,
  type SampleRate,
  SLIDERS,
  type SliderKind,
  type VoiceEffect,
} from '@parla/contract';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr, ltrText } from '../../../components/ltr';
import { NumberField } from '../../../components/number-field';
import {
  changeEngine,
  changeFormat,
  changeLanguage,
  changeVoice,
  chooseVoice,
  effectsFor,
  FORMAT_OPTIONS,
  findVoice,
  languagesFor,
  type PanelSettings,
  sampleRateOptions,
  voicesOf,
} from '../lib/voice-settings';
import classes from './voice-settings-panel.module.css';
import { WidgetBoundary } from './widget-boundary';

/** The voice picker's dialog, loaded when a visitor reaches for it (first-load budget). */
const loadVoicePicker = () => import('./voice-picker');
/** Fetches the dialog ahead of the click; a failure shows when the dialog is asked for. */
const preloadVoicePicker = () => {
  loadVoicePicker().catch(() => undefined);
};
const VoicePicker = lazy(() => loadVoicePicker().then((m) => ({ default: m.VoicePicker })));

function ticks(kind: SliderKind) {
  const { min, max, tick, unit }: { min: number; max: number; tick: number; unit: string } =
    SLIDERS[kind];
  const marks = [];
  for (let value = min; value <= max; value += tick) {
    marks.push({
      value,
      label:
        value === min || value === 0 || value === max
          ? ltrText(`${value}${unit === '%' ? '%' : ''}`)
          : undefined,
    });
  }
  return marks;
}

function SliderField({
  kind,
  value,
  disabled,
  onChange,
}: {
  kind: SliderKind;
  value: number;
  disabled?: boolean;
  onChange: (value: number) => void;
}) {
  const { t } = useTranslation();
  const { min, max, unit } = SLIDERS[kind];
  const label = t(SLIDER_LABEL_KEYS[kind]);
  return (
    <Stack gap={2}>
      <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} component="span" id={`slider-${kind}`}>
          {label} (<Ltr>{unit}</Ltr>)
        </Text>
        <NumberField
          aria-label={t('settings.sliderValue', { name: label })}
          size="xs"
          w={84}
          min={min}
          max={max}
          disabled={disabled}
          value={value}
          onChange={onChange}
        />
      </Group>
      <Slider
        aria-labelledby={`slider-${kind}`}
        thumbLabel={t('settings.slider', { name: label })}
        min={min}
        max={max}
        step={1}
        marks={ticks(kind)}
        disabled={disabled}
        value={value}
        onChange={onChange}
        mb="md"
        mx="xs"
        classNames={{ bar: classes.bar, mark: classes.mark }}
        label={(v) => ltrText(`${v} ${unit}`)}
      />
    </Stack>
  );
}

interface VoiceSettingsPanelProps {
  languages: readonly Language[];
  settings: PanelSettings;
  onChange: (settings: PanelSettings) => void;
  /** An administrator is told how voices are added; visitors are not. */
  admin?: boolean;
}

const SLIDER_LABEL_KEYS = {
  speed: 'settings.speed',
  volume: 'settings.volume',
  pitch: 'settings.pitch',
} as const satisfies Record<SliderKind, string>;

const ENGINE_KEYS = {
  neural: 'settings.neural',
  standard: 'settings.standard',
} as const satisfies Record<Engine, string>;

/** SPEC §1, §5, §9: engine, language, voice, effect, format, sample rate, speed, volume, pitch. */
export function VoiceSettingsPanel({
  languages,
  settings,
  onChange,
  admin = false,
}: VoiceSettingsPanelProps) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  // Kept mounted once opened, so that the dialog's closing transition plays.
  const [pickerUsed, setPickerUsed] = useState(false);
  const voice = findVoice(languages, settings);
  const effects: VoiceEffect[] = effectsFor(settings.engine, voice);
  const languageOptions = languagesFor(languages, settings.engine).map((l) => ({
    value: l.language_code,
    label: l.language_name,
  }));
  const voiceOptions = voicesOf(languages, settings.language_code, settings.engine).map((v) => ({
    value: v.id,
    label: `${v.name} (${v.gender === 'female' ? t('settings.female') : v.gender === 'male' ? t('settings.male') : v.gender})`,
  }));
  return (
    <Stack gap="sm" px={4}>
      {
        // Without neural voices the page says so, and nothing of how an operator adds them.
        languages.length > 0 && languagesFor(languages, 'neural').length === 0 && (
          <Text size="xs" c="dimmed">
            {t('settings.noNeuralVoices')} {admin && t('settings.addVoicesAdmin')}
          </Text>
        )
      }
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
        <NativeSelect
          label={t('settings.engine')}
          data={ENGINES.map((engine) => ({
            value: engine,
            label: t(ENGINE_KEYS[engine]),
            disabled: languagesFor(languages, engine).length === 0,
          }))}
          value={settings.engine}
          onChange={(event) =>
            onChange(changeEngine(settings, event.currentTarget.value as Engine, languages))
          }
        />
        <NativeSelect
          label={t('settings.language')}
          data={languageOptions}
          value={settings.language_code}
          onChange={(event) =>
            onChange(changeLanguage(settings, event.currentTarget.value, languages))
          }
        />
        <NativeSelect
          label={t('settings.voice')}
          data={voiceOptions}
          value={settings.voice_id}
          onChange={(event) =>
            onChange(changeVoice(settings, event.currentTarget.value, languages))
          }
        />
        <NativeSelect
          label={t('settings.effect')}
          data={[
            { value: '', label: t('settings.noEffect') },
            ...effects.map((effect) => ({ value: effect, label: effect })),
          ]}
          value={settings.effect ?? ''}
          onChange={(event) =>
            onChange({
              ...settings,
              effect: (event.currentTarget.value || null) as VoiceEffect | null,
            })
          }
        />
        <NativeSelect
          label={t('settings.format')}
          data={FORMAT_OPTIONS}
          value={settings.output_format}
          onChange={(event) =>
            onChange(changeFormat(settings, event.currentTarget.value as AudioFormat))
          }
        />
        <NativeSelect
          label={t('settings.sampleRate')}
          data={sampleRateOptions(settings.engine, settings.output_format).map((option) => ({
            ...option,
            label: ltrText(option.label),
          }))}
          value={String(settings.sample_rate)}
          onChange={(event) =>
            onChange({ ...settings, sample_rate: Number(event.currentTarget.value) as SampleRate })
          }
        />
      </SimpleGrid>
      <Button
        variant="light"
        size="xs"
        onPointerEnter={preloadVoicePicker}
        onFocus={preloadVoicePicker}
        onClick={() => {
          setPickerUsed(true);
          setPicking(true);
        }}
        disabled={languages.length === 0}
      >
        {t('voicePicker.browse')}
      </Button>
      {pickerUsed && (
        <WidgetBoundary name={t('convertor.theVoicePicker')}>
          <Suspense fallback={null}>
            <VoicePicker
              opened={picking}
              onClose={() => setPicking(false)}
              languages={languages}
              currentVoiceId={settings.voice_id}
              admin={admin}
              onChoose={(chosen, language) => {
                setPicking(false);
                onChange(chooseVoice(settings, chosen, language.language_code, languages));
              }}
            />
          </Suspense>
        </WidgetBoundary>
      )}
      <SliderField
        kind="speed"
        value={settings.master_speed}
        onChange={(master_speed) => onChange({ ...settings, master_speed })}
      />
      <SliderField
        kind="volume"
        value={settings.master_volume}
        onChange={(master_volume) => onChange({ ...settings, master_volume })}
      />
      <SliderField
        kind="pitch"
        value={settings.master_pitch}
        disabled={voice !== undefined && !voice.capabilities.pitch}
        onChange={(master_pitch) => onChange({ ...settings, master_pitch })}
      />
    </Stack>
  );
}
