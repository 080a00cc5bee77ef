import type { Engine, Language, Voice, VoiceEffect } from '@parla/contract';
import { DEFAULT_API_LANGUAGE, findLanguage } from '../../services/conversion/settings.js';

/** OpenAI's voices with the gender of the voice each is given (docs/api.md). */
export const OPENAI_VOICE_GENDERS: Record<string, 'female' | 'male'> = {
  alloy: 'female',
  ash: 'male',
  ballad: 'male',
  coral: 'female',
  echo: 'male',
  fable: 'male',
  nova: 'female',
  onyx: 'male',
  sage: 'female',
  shimmer: 'female',
  verse: 'male',
};

/**
 * The English voice an OpenAI voice name is given: of its gender, and a different one for each
 * name while the catalogue has enough (alloy, coral, nova, sage and shimmer are five voices,
 * not one). The model's engine first, the other one where it has no English voice.
 */
export function openAiVoice(
  languages: readonly Language[],
  name: string,
  engine: Engine,
): Voice | undefined {
  const gender = OPENAI_VOICE_GENDERS[name.toLowerCase()];
  if (!gender) return undefined;
  const english = findLanguage(languages, DEFAULT_API_LANGUAGE)?.voices ?? [];
  const usable = (of: Engine) => english.filter((v) => v.engine === of && v.available !== false);
  const voices =
    usable(engine).length > 0
      ? usable(engine)
      : usable(engine === 'neural' ? 'standard' : 'neural');
  const same = voices.filter((voice) => voice.gender === gender);
  const pool = same.length > 0 ? same : voices;
  const names = Object.keys(OPENAI_VOICE_GENDERS).filter((n) => OPENAI_VOICE_GENDERS[n] === gender);
  return pool[names.indexOf(name.toLowerCase()) % pool.length];
}

/**
 * The speaking style OpenAI's `instructions` ask for, as one of SPEC §9's effects: the first
 * style word it names ("Speak in a cheerful, upbeat tone" is happy). Undefined when it names
 * none Parla has.
 */
const STYLE_WORDS: ReadonlyArray<[RegExp, VoiceEffect]> = [
  [/\bwhisper/i, 'whispered'],
  [/\bshout|\byell/i, 'shouting'],
  [/\bnews|\banchor|\breporter/i, 'news'],
  [/\bcustomer (service|support)/i, 'customersupport'],
  [/\bassistant/i, 'assistant'],
  [/\bempath|\bcompassion/i, 'empathic'],
  [/\bcalm|\bsoothing|\brelax/i, 'calm'],
  [/\bcheerful|\bhappy|\bjoyful|\bupbeat/i, 'happy'],
  [/\bsad\b|\bmelanchol|\bsorrow/i, 'sad'],
  [/\bangry|\bfurious/i, 'angry'],
  [/\bexcited|\benthusias/i, 'excited'],
  [/\bunfriendly|\bcold\b|\bhostile/i, 'unfriendly'],
  [/\bfriendly|\bwarm\b/i, 'friendly'],
  [/\bhopeful|\boptimis/i, 'hopeful'],
  [/\bterrified|\bscared|\bfright/i, 'terrified'],
  [/\bconversational|\bcasual|\bchat/i, 'conversational'],
  [/\bsoft(ly)?\b|\bgentle/i, 'soft'],
];

export function styleOf(instructions: string): VoiceEffect | undefined {
  let first: { at: number; effect: VoiceEffect } | undefined;
  for (const [pattern, effect] of STYLE_WORDS) {
    const at = instructions.search(pattern);
    if (at >= 0 && (!first || at < first.at)) first = { at, effect };
  }
  return first?.effect;
}
