import {
  AUDIO_FORMATS,
  type AudioFormat,
  allowedSampleRates,
  availableEffects,
  defaultSampleRate,
  type Engine,
  type Language,
  SAMPLE_RATES,
  VOICE_SETTINGS_DEFAULTS,
  type Voice,
  type VoiceCapabilities,
  type VoiceEffect,
  type VoiceSettings,
} from '@parla/contract';

/**
 * The voice settings panel's rules (SPEC §5, issue 4 item 8), on top of the sample-rate rules
 * of @parla/contract: this module only decides what the selects offer and what a change resets.
 */

/** The settings without the text; the page adds the document when it converts. */
export type PanelSettings = Omit<VoiceSettings, 'text'>;

export interface Option {
  value: string;
  label: string;
  disabled?: boolean;
}

/** Every rate of SPEC §9, the ones the engine and format cannot produce disabled. */
export function sampleRateOptions(engine: Engine, format: AudioFormat): Option[] {
  const allowed = allowedSampleRates(engine, format);
  return SAMPLE_RATES.map((rate) => ({
    value: String(rate),
    label: `${rate} Hz`,
    disabled: !allowed.includes(rate),
  }));
}

export const FORMAT_OPTIONS: Option[] = AUDIO_FORMATS.map((format) => ({
  value: format,
  label: format.toUpperCase(),
}));

export function voicesOf(languages: readonly Language[], code: string, engine: Engine): Voice[] {
  return (
    languages.find((l) => l.language_code === code)?.voices.filter((v) => v.engine === engine) ?? []
  );
}

/** Languages that have at least one voice on the engine. */
export function languagesFor(languages: readonly Language[], engine: Engine): Language[] {
  return languages.filter((language) => language.voices.some((voice) => voice.engine === engine));
}

export function findVoice(
  languages: readonly Language[],
  settings: PanelSettings,
): Voice | undefined {
  return voicesOf(languages, settings.language_code, settings.engine).find(
    (v) => v.id === settings.voice_id,
  );
}

const NO_CAPABILITIES: VoiceCapabilities = { pitch: false, emphasis: false };

export function capabilitiesOf(voice: Voice | undefined): VoiceCapabilities {
  return voice?.capabilities ?? NO_CAPABILITIES;
}

/** The effects the effect select and the voice-effect menu offer for the chosen voice. */
export function effectsFor(engine: Engine, voice: Voice | undefined): VoiceEffect[] {
  return voice ? availableEffects(engine, voice) : [];
}

/** Keeps the effect only when the new engine and voice still offer it. */
function keepEffect(settings: PanelSettings, languages: readonly Language[]): PanelSettings {
  const voice = findVoice(languages, settings);
  const effects = effectsFor(settings.engine, voice);
  return {
    ...settings,
    effect: settings.effect && effects.includes(settings.effect) ? settings.effect : null,
  };
}

/** The first voice of the language on the engine when the current one is not there. */
function keepVoice(settings: PanelSettings, languages: readonly Language[]): PanelSettings {
  let { language_code } = settings;
  if (voicesOf(languages, language_code, settings.engine).length === 0) {
    // Another variety of the same language before English: fr-ch without voices, fr-fr.
    const [base = ''] = language_code.toLowerCase().split('-');
    language_code =
      preferredLanguage(languagesFor(languages, settings.engine), base)?.language_code ??
      language_code;
  }
  const voices = voicesOf(languages, language_code, settings.engine);
  const voice_id = voices.some((v) => v.id === settings.voice_id)
    ? settings.voice_id
    : (voices[0]?.id ?? '');
  return keepEffect({ ...settings, language_code, voice_id }, languages);
}

/** The variety a language's speakers hear first when there are several (en-029 is English too). */
const MAIN_VARIETY: Record<string, string> = {
  en: 'en-us',
  fr: 'fr-fr',
  de: 'de-de',
  es: 'es-es',
};

/**
 * The voices' language for a page in `language` (an ISO 639-1 code such as 'fr'): its main
 * variety, else the bare language, else any variety of it; else English the same way; else the
 * first language there is.
 */
/** The language a tag names among these (its main variety first), or undefined. */
function languageOf(languages: readonly Language[], tag: string): Language | undefined {
  const codeOf = (l: Language) => l.language_code.toLowerCase();
  return (
    languages.find((l) => codeOf(l) === (MAIN_VARIETY[tag] ?? tag)) ??
    languages.find((l) => codeOf(l) === tag) ??
    languages.find((l) => codeOf(l).startsWith(`${tag}-`))
  );
}

function preferredLanguage(languages: readonly Language[], language: string): Language | undefined {
  return (
    (language ? languageOf(languages, language) : undefined) ??
    languageOf(languages, 'en') ??
    languages[0]
  );
}

/** SPEC §4: an engine change resets the sample rate (to the default of the engine and format). */
export function changeEngine(
  settings: PanelSettings,
  engine: Engine,
  languages: readonly Language[],
): PanelSettings {
  return keepVoice(
    { ...settings, engine, sample_rate: defaultSampleRate(engine, settings.output_format) },
    languages,
  );
}

/**
 * The settings on an engine of the caller's plan (decision 055): unchanged when theirs is
 * allowed (or the plan's engines are not known yet), else on the first allowed engine that has
 * voices; the server refuses the others.
 */
export function withinPlan(
  settings: PanelSettings,
  engines: readonly Engine[] | undefined,
  languages: readonly Language[],
): PanelSettings {
  if (!engines || engines.includes(settings.engine)) return settings;
  const engine = engines.find((allowed) => languagesFor(languages, allowed).length > 0);
  return engine ? changeEngine(settings, engine, languages) : settings;
}

/** SPEC §5: neural + mp3/ogg gives 48000, standard + mp3/ogg 24000, wav forces 16000. */
export function changeFormat(settings: PanelSettings, output_format: AudioFormat): PanelSettings {
  return {
    ...settings,
    output_format,
    sample_rate: defaultSampleRate(settings.engine, output_format),
  };
}

/** A voice chosen in the picker, of any language or engine: both follow it. */
export function chooseVoice(
  settings: PanelSettings,
  voice: Voice,
  language_code: string,
  languages: readonly Language[],
): PanelSettings {
  const engine = voice.engine;
  const sample_rate =
    engine === settings.engine
      ? settings.sample_rate
      : defaultSampleRate(engine, settings.output_format);
  return keepEffect(
    { ...settings, engine, sample_rate, language_code, voice_id: voice.id },
    languages,
  );
}

/**
 * The starting settings: SPEC §9 defaults, on an engine that has voices, in the page's language
 * (`language`, e.g. 'fr' on /fr/convertor) when there are voices for it, else in English.
 */
export function initialSettings(languages: readonly Language[], language = 'en'): PanelSettings {
  // The page's language in its natural voices when it has some (issue 29: the best voice
  // first), else in its standard ones rather than in another language's natural voices; a
  // language with no voice at all starts in English, on the default engine when it can.
  const natural = languagesFor(languages, 'neural');
  const engine: Engine =
    language && languageOf(natural, language)
      ? 'neural'
      : language && languageOf(languagesFor(languages, 'standard'), language)
        ? 'standard'
        : languagesFor(languages, VOICE_SETTINGS_DEFAULTS.engine).length > 0
          ? VOICE_SETTINGS_DEFAULTS.engine
          : 'standard';
  const spoken = preferredLanguage(languagesFor(languages, engine), language);
  return keepVoice(
    {
      ...VOICE_SETTINGS_DEFAULTS,
      voice_effects: [],
      engine,
      sample_rate: defaultSampleRate(engine, VOICE_SETTINGS_DEFAULTS.output_format),
      language_code: spoken?.language_code ?? '',
      voice_id: '',
    },
    languages,
  );
}
