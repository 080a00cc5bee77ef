import { Button, Group, NativeSelect, SimpleGrid, Slider, Stack, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
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
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ltr, ltrText } from '../../../components/ltr';
import { NumberField } from '../../../components/number-field';
import { effectLabel } from '../lib/voice-labels';
import {
  changeEngine,
  changeFormat,
  chooseVoice,
  effectsFor,
  FORMAT_OPTIONS,
  findVoice,
  languagesFor,
  type PanelSettings,
  sampleRateOptions,
} from '../lib/voice-settings';
import { VoiceCard } from './voice-card';
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

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      style={{ transform: open ? 'rotate(180deg)' : undefined }}
    >
      <path d="M6 9l6 6 6-6" />
    </svg>
  );
}

interface VoiceSettingsPanelProps {
  languages: readonly Language[];
  settings: PanelSettings;
  onChange: (settings: PanelSettings) => void;
  /** An administrator is told how voices are added; visitors are not. */
  admin?: boolean;
  /** The engines the caller's plan may use (the server refuses the others); undefined: all. */
  engines?: readonly Engine[] | undefined;
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
  engines = ENGINES,
}: VoiceSettingsPanelProps) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  // Kept mounted once opened, so that the dialog's closing transition plays.
  const [pickerUsed, setPickerUsed] = useState(false);
  const voice = findVoice(languages, settings);
  const language = languages.find((l) => l.language_code === settings.language_code);
  const effects: VoiceEffect[] = effectsFor(settings.engine, voice);
  // Issue 33, item 3: format, sample rate, volume and pitch under "Advanced", its state kept.
  const [advanced, setAdvanced] = useLocalStorage({
    key: 'parla:advanced-settings',
    defaultValue: false,
  });
  const advancedId = useId();
  const openPicker = () => {
    setPickerUsed(true);
    setPicking(true);
  };
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
      {voice && language && (
        <VoiceCard
          voice={voice}
          language={language}
          onChange={openPicker}
          onPreload={preloadVoicePicker}
        />
      )}
      <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
        <NativeSelect
          label={t('settings.engine')}
          data={ENGINES.map((engine) => ({
            value: engine,
            label: t(ENGINE_KEYS[engine]),
            disabled: !engines.includes(engine) || languagesFor(languages, engine).length === 0,
          }))}
          value={settings.engine}
          onChange={(event) =>
            onChange(changeEngine(settings, event.currentTarget.value as Engine, languages))
          }
        />
        <NativeSelect
          label={t('settings.effect')}
          data={[
            { value: '', label: t('settings.noEffect') },
            ...effects.map((effect) => ({ value: effect, label: effectLabel(effect, t) })),
          ]}
          value={settings.effect ?? ''}
          onChange={(event) =>
            onChange({
              ...settings,
              effect: (event.currentTarget.value || null) as VoiceEffect | null,
            })
          }
        />
      </SimpleGrid>
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
      <Button
        variant="subtle"
        justify="space-between"
        h={44}
        fullWidth
        aria-expanded={advanced}
        aria-controls={advancedId}
        onClick={() => setAdvanced((open) => !open)}
        rightSection={<Chevron open={advanced} />}
      >
        {t('settings.advanced')}
      </Button>
      {/* Shown or not, without an animation: Collapse would add to the first load (issue 33). */}
      {advanced && (
        <Stack gap="sm" id={advancedId}>
          <SimpleGrid cols={2} spacing="sm" verticalSpacing="xs">
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
                onChange({
                  ...settings,
                  sample_rate: Number(event.currentTarget.value) as SampleRate,
                })
              }
            />
          </SimpleGrid>
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
      )}
    </Stack>
  );
}
