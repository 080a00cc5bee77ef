import { listWasmVoices } from './wasm-backend.js';

/**
 * The catalogue of the espeak-ng engine: every language of its data, each with the same
 * eight voice variants. Ids read `standard:<language>` for the language's own voice and
 * `standard:<language>+<variant>` for a variant, e.g. `standard:fr-fr+f2`.
 */

export interface VariantInfo {
  /** espeak-ng variant file name; '' is the language's own (male) voice. */
  variant: string;
  name: string;
  gender: 'male' | 'female';
}

export const VARIANTS: readonly VariantInfo[] = [
  { variant: '', name: 'Male 1', gender: 'male' },
  { variant: 'm1', name: 'Male 2', gender: 'male' },
  { variant: 'm3', name: 'Male 3', gender: 'male' },
  { variant: 'm7', name: 'Male 4', gender: 'male' },
  { variant: 'f1', name: 'Female 1', gender: 'female' },
  { variant: 'f2', name: 'Female 2', gender: 'female' },
  { variant: 'f3', name: 'Female 3', gender: 'female' },
  { variant: 'f4', name: 'Female 4', gender: 'female' },
];

/**
 * Constructed, fictional and test languages of espeak-ng's data: offered only when the
 * operator turns them on (SPEECH_EXTRA_LANGUAGES). Esperanto, Interlingua and Latin stay:
 * people do write them.
 */
export const EXTRA_LANGUAGES: readonly string[] = [
  'piqd', // Klingon
  'qya', // Quenya
  'sjn', // Sindarin
  'jbo', // Lojban
  'qdb', // Lang Belta
  'py', // Pyash
  'lfn', // Lingua Franca Nova
  'io', // Ido
  'xex', // xextan-test, espeak-ng's test voice
];

/** Names people read, where espeak-ng's own ones are odd. */
const NAMES: Readonly<Record<string, string>> = {
  'en-us': 'English (US)',
  'en-gb': 'English (UK)',
  'en-us-nyc': 'English (US, New York City)',
  cmn: 'Chinese (Mandarin)',
  'cmn-latn-pinyin': 'Chinese (Mandarin, Pinyin)',
  'yue-latn-jyutping': 'Chinese (Cantonese, Jyutping)',
  'fa-latn': 'Persian (Latin script)',
};

/**
 * BCP-47 codes people and other SSML writers use that espeak-ng knows by another code
 * (lower case). A code not here resolves to itself, then to its base language.
 */
const ALIASES: Readonly<Record<string, string>> = {
  en: 'en-us',
  zh: 'cmn',
  'zh-cn': 'cmn',
  'zh-hans': 'cmn',
  'zh-sg': 'cmn',
  'zh-tw': 'cmn',
  'zh-hant': 'cmn',
  'zh-hk': 'yue',
  'zh-yue': 'yue',
  'cmn-cn': 'cmn',
  fr: 'fr-fr',
  'pt-pt': 'pt',
  'es-es': 'es',
  'es-mx': 'es-419',
  'es-us': 'es-419',
  no: 'nb',
  'nb-no': 'nb',
  'en-au': 'en-gb',
  'en-nz': 'en-gb',
  'en-ie': 'en-gb',
  'en-in': 'en-gb',
  'en-ca': 'en-us',
};

export interface CatalogueLanguage {
  code: string;
  name: string;
  /** The voice file espeak-ng loads (`-v`): the identifier's last part, e.g. "fr" for fr-fr. */
  espeakName: string;
  /** A constructed or test language (EXTRA_LANGUAGES). */
  extra: boolean;
}

let languagesPromise: Promise<CatalogueLanguage[]> | undefined;

/** espeak-ng names read "English_(Great_Britain)"; people read "English (Great Britain)". */
function readableName(code: string, name: string): string {
  return NAMES[code] ?? name.replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
}

/** A voice file as espeak-ng lists it: the WebAssembly build's list, or `espeak-ng --voices`. */
export interface EspeakVoiceFile {
  /** Its path below voices/ or lang/, e.g. "roa/fr". */
  identifier: string;
  name: string;
  /** Its first language code, e.g. "fr-fr". */
  language: string | undefined;
}

/** The catalogue's languages of a list of voice files, sorted by name. */
export function languagesOf(voices: readonly EspeakVoiceFile[]): CatalogueLanguage[] {
  const seen = new Map<string, CatalogueLanguage>();
  for (const voice of voices) {
    const espeakName = voice.identifier.split('/').at(-1) ?? voice.identifier;
    let code = voice.language;
    // Two voices can share a first language (yue): the second is known by its file name.
    if (code && seen.has(code)) code = espeakName.toLowerCase();
    if (!code || seen.has(code)) continue;
    seen.set(code, {
      code,
      name: readableName(code, voice.name),
      espeakName,
      extra: EXTRA_LANGUAGES.includes(code.toLowerCase()),
    });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Every language of espeak-ng's data, extra ones included, sorted by name: the WebAssembly
 * build's, which has every language (a native install may lack some).
 */
export function catalogueLanguages(): Promise<CatalogueLanguage[]> {
  languagesPromise ??= listWasmVoices().then((voices) =>
    languagesOf(
      voices.map((v) => ({
        identifier: v.identifier,
        name: v.name,
        language: v.languages[0]?.name,
      })),
    ),
  );
  return languagesPromise;
}

/**
 * The item whose language a BCP-47 code means, case-insensitively: the exact code, an alias
 * (`zh-CN`, `zh` → Mandarin; `en` → American English), then the code's base language
 * (`de-AT` → `de`) or the first language of that base (`fr-CA` → French (France) through
 * `fr`).
 */
export function findLanguage<T>(
  items: readonly T[],
  code: string,
  codeOf: (item: T) => string,
): T | undefined {
  const lower = code.toLowerCase();
  const byCode = (c: string) => items.find((item) => codeOf(item).toLowerCase() === c);
  const base = lower.split('-')[0] ?? lower;
  return (
    byCode(lower) ??
    byCode(ALIASES[lower] ?? '') ??
    byCode(ALIASES[base] ?? base) ??
    items.find((item) => codeOf(item).toLowerCase().split('-')[0] === base)
  );
}

export function voiceId(language: string, variant: string): string {
  return variant ? `standard:${language}+${variant}` : `standard:${language}`;
}
