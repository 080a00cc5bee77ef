import {
  type ApiSpeechInput,
  defaultSampleRate,
  type Engine,
  type Language,
  VOICE_SETTINGS_DEFAULTS,
  type Voice,
  type VoiceSettings,
} from '@parla/contract';

/** The language a call gets when it names neither a voice nor a language. */
export const DEFAULT_API_LANGUAGE = 'en-us';

/** The catalogue's language of a BCP-47 code: exact, else the first of its primary language. */
export function findLanguage(languages: readonly Language[], code: string): Language | undefined {
  const lower = code.toLowerCase();
  return (
    languages.find((l) => l.language_code.toLowerCase() === lower) ??
    languages.find((l) => l.language_code.toLowerCase().split('-')[0] === lower.split('-')[0])
  );
}

/** A voice of the catalogue by its id (in any case), with its language. */
export function findVoice(
  languages: readonly Language[],
  id: string,
): { voice: Voice; language: Language } | undefined {
  const wanted = id.toLowerCase();
  for (const language of languages) {
    const voice = language.voices.find((v) => v.id.toLowerCase() === wanted);
    if (voice) return { voice, language };
  }
  return undefined;
}

/**
 * The full voice settings of a public API call (issue 16): what it gives, the rest as SPEC §9
 * defaults them. A named voice decides its engine and language; otherwise the language
 * (default English) and engine (default neural where the language has a neural voice) choose
 * the first voice, of `gender` when asked. Unknown names stay as given: the settings' own
 * validation then names the field.
 */
export function apiVoiceSettings(
  languages: readonly Language[],
  input: ApiSpeechInput,
  choice: {
    gender?: 'female' | 'male' | undefined;
    /** `input.engine` is a preference: the other engine when it has no voice here. */
    preferEngine?: boolean;
  } = {},
): VoiceSettings {
  const { gender } = choice;
  let voice: Voice | undefined;
  let language: Language | undefined;
  if (input.voice) {
    ({ voice, language } = findVoice(languages, input.voice) ?? {});
  } else {
    language = findLanguage(languages, input.language ?? DEFAULT_API_LANGUAGE);
    const engineOf = (engine: Engine) => language?.voices.filter((v) => v.engine === engine) ?? [];
    const fallback: Engine = engineOf('neural').length > 0 ? 'neural' : 'standard';
    const engine: Engine =
      input.engine && (!choice.preferEngine || engineOf(input.engine).length > 0)
        ? input.engine
        : fallback;
    const voices = engineOf(engine);
    voice =
      voices.find((v) => v.available !== false && (!gender || v.gender === gender)) ?? voices[0];
  }
  const engine = voice?.engine ?? input.engine ?? VOICE_SETTINGS_DEFAULTS.engine;
  const format = input.format ?? VOICE_SETTINGS_DEFAULTS.output_format;
  return {
    ...VOICE_SETTINGS_DEFAULTS,
    voice_effects: [],
    engine,
    voice_id: voice?.id ?? input.voice ?? '',
    language_code: language?.language_code ?? input.language ?? DEFAULT_API_LANGUAGE,
    text: input.text,
    output_format: format,
    sample_rate: input.sample_rate ?? defaultSampleRate(engine, format),
    effect: input.effect ?? null,
    master_speed: input.speed ?? VOICE_SETTINGS_DEFAULTS.master_speed,
    master_volume: input.volume ?? VOICE_SETTINGS_DEFAULTS.master_volume,
    master_pitch: input.pitch ?? VOICE_SETTINGS_DEFAULTS.master_pitch,
    ...(input.lexicon_names !== undefined && { lexicon_names: input.lexicon_names }),
  };
}
