import { type Engine, type Language, STANDARD_ONLY_EFFECTS, type Voice } from '@parla/contract';

/** What the voice picker's filters ask for. */
export interface VoiceFilter {
  /** Words that must each appear in the voice's name, id, or language name or code. */
  query: string;
  engine: Engine | 'all';
  /** `all`, or a gender of the catalogue in lower case. */
  gender: string;
  /** A provider id (`polly`, `azure`, …) or `all`. */
  provider: string;
  /** Only voices with at least one speaking style (not counting Polly's three effects). */
  withStyles: boolean;
}

/** Providers as people know them. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'espeak-ng': 'eSpeak NG',
  piper: 'Piper',
  polly: 'Amazon Polly',
  azure: 'Azure Speech',
  openai: 'OpenAI-compatible',
};

const STANDARD_ONLY = new Set<string>(STANDARD_ONLY_EFFECTS);

/** A lowercase form without accents, so "francais" finds "Français". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A voice's speaking styles (its effects but Polly's standard-only three). */
export function styleCount(voice: Voice): number {
  return voice.effects.filter((effect) => !STANDARD_ONLY.has(effect)).length;
}

/** The genders of a catalogue's voices, in lower case (the picker offers only these). */
export function gendersOf(languages: readonly Language[]): string[] {
  const found = new Set<string>();
  for (const language of languages) {
    for (const voice of language.voices) found.add(voice.gender.toLowerCase());
  }
  return [...found].sort();
}

/**
 * The languages and voices a filter keeps, empty ones left out: the language of the voice
 * `first` first (the picker opens where the current voice is), then in catalogue order.
 */
export function filterVoices(
  languages: readonly Language[],
  filter: VoiceFilter,
  first?: string,
): { language: Language; voices: Voice[] }[] {
  const words = fold(filter.query).split(/\s+/).filter(Boolean);
  const keeps = (voice: Voice, language: Language) => {
    if (filter.engine !== 'all' && voice.engine !== filter.engine) return false;
    if (filter.gender !== 'all' && voice.gender.toLowerCase() !== filter.gender) return false;
    if (filter.provider !== 'all' && voice.provider !== filter.provider) return false;
    if (filter.withStyles && styleCount(voice) === 0) return false;
    const haystack = fold(
      `${voice.name} ${voice.id} ${language.language_name} ${language.language_code}`,
    );
    return words.every((word) => haystack.includes(word));
  };
  return languages
    .map((language) => ({
      language,
      voices: language.voices.filter((voice) => keeps(voice, language)),
    }))
    .filter((group) => group.voices.length > 0)
    .sort(
      (a, b) =>
        Number(b.voices.some((v) => v.id === first)) - Number(a.voices.some((v) => v.id === first)),
    );
}
