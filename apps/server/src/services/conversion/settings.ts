import {
  type ApiSpeechInput,
  type Engine,
  type Language,
  SLIDERS,
  VOICE_SETTINGS_DEFAULTS,
  type Voice,
  type VoiceSettings,
} from '@parla/contract';
import { escapeXml, looksLikeSsml } from '@parla/speech';

/** The language a call gets when it names neither a voice nor a language. */
export const DEFAULT_API_LANGUAGE = 'en-us';

/** SPEC §5/§9: neural + mp3/ogg gives 48000, standard + mp3/ogg 24000, wav 16000. */
function defaultRate(engine: Engine, format: VoiceSettings['output_format']) {
  if (format === 'wav') return 16000;
  return engine === 'neural' ? 48000 : 24000;
}

function findLanguage(languages: readonly Language[], code: string): Language | undefined {
  const lower = code.toLowerCase();
  return (
    languages.find((l) => l.language_code.toLowerCase() === lower) ??
    languages.find((l) => l.language_code.toLowerCase().split('-')[0] === lower.split('-')[0])
  );
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
    for (const candidate of languages) {
      const found = candidate.voices.find((v) => v.id.toLowerCase() === input.voice?.toLowerCase());
      if (found) {
        voice = found;
        language = candidate;
        break;
      }
    }
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
    sample_rate: input.sample_rate ?? defaultRate(engine, format),
    effect: input.effect ?? null,
    master_speed: input.speed ?? VOICE_SETTINGS_DEFAULTS.master_speed,
    master_volume: input.volume ?? VOICE_SETTINGS_DEFAULTS.master_volume,
    master_pitch: input.pitch ?? VOICE_SETTINGS_DEFAULTS.master_pitch,
  };
}

/**
 * OpenAI's `speed` (0.25 to 4, a multiplier) as Parla's speed slider (-100 to 100 %, where
 * +100 % doubles the rate), and the text wrapped in `<prosody rate>` for what lies beyond the
 * slider (0.25 to 0.5 and 2 to 4).
 */
export function openAiSpeed(speed: number, text: string): { master_speed: number; text: string } {
  const { min, max } = SLIDERS.speed;
  const percent = Math.round(100 * Math.log2(speed));
  const master_speed = Math.min(max, Math.max(min, percent));
  const rest = speed / 2 ** (master_speed / 100);
  if (Math.abs(rest - 1) < 0.01) return { master_speed, text };
  const body = looksLikeSsml(text)
    ? text.replace(/^\s*<speak[^>]*>|<\/speak>\s*$/g, '')
    : escapeXml(text);
  return {
    master_speed,
    text: `<speak><prosody rate="${Math.round(rest * 100)}%">${body}</prosody></speak>`,
  };
}
