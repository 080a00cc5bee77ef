import { type Language, VOICE_EFFECTS, type Voice, type VoiceEffect } from '@parla/contract';
import { listWasmVoices } from './engines/espeak/wasm-backend.js';
import { listNeuralVoices, type NeuralVoice, neuralCatalogueVoice } from './engines/piper/voices.js';

/**
 * The catalogue of the standard engine: every espeak-ng language, each with the same set of
 * espeak-ng voice variants. Ids read `standard:<language>` for the language's own voice and
 * `standard:<language>+<variant>` for a variant, e.g. `standard:fr-fr+f2`.
 */

export interface VariantInfo {
  /** espeak-ng variant file name; '' is the language's own (male) voice. */
  variant: string;
  name: string;
  gender: 'male' | 'female';
}

export const VARIANTS: readonly VariantInfo[] = [
  { variant: '', name: 'Male', gender: 'male' },
  { variant: 'm1', name: 'Male 1', gender: 'male' },
  { variant: 'm3', name: 'Male 2', gender: 'male' },
  { variant: 'm7', name: 'Male 3', gender: 'male' },
  { variant: 'f1', name: 'Female 1', gender: 'female' },
  { variant: 'f2', name: 'Female 2', gender: 'female' },
  { variant: 'f3', name: 'Female 3', gender: 'female' },
  { variant: 'f4', name: 'Female 4', gender: 'female' },
];

/** Every effect changes a standard voice's audio (see effects.ts); the test suite checks it. */
export const STANDARD_EFFECTS: readonly VoiceEffect[] = VOICE_EFFECTS;

export interface ResolvedVoice {
  engine: 'standard';
  id: string;
  language: string;
  /** espeak-ng voice file of the language, without variant. */
  espeakName: string;
  variant: VariantInfo;
  /** What espeak-ng is given as -v. */
  espeakVoice: string;
}

export interface CatalogueLanguage {
  code: string;
  name: string;
  /** The voice file espeak-ng loads (`-v`): the identifier's last part, e.g. "fr" for fr-fr. */
  espeakName: string;
}

let languagesPromise: Promise<CatalogueLanguage[]> | undefined;

/** espeak-ng names read "English_(Great_Britain)"; people read "English (Great Britain)". */
function readableName(name: string): string {
  return name.replaceAll('_', ' ').replace(/\s+/g, ' ').trim();
}

export function catalogueLanguages(): Promise<CatalogueLanguage[]> {
  languagesPromise ??= listWasmVoices().then((voices) => {
    const seen = new Map<string, CatalogueLanguage>();
    for (const voice of voices) {
      const espeakName = voice.identifier.split('/').at(-1) ?? voice.identifier;
      let code = voice.languages[0]?.name;
      // Two voices can share a first language (yue): the second is known by its file name.
      if (code && seen.has(code)) code = espeakName.toLowerCase();
      if (!code || seen.has(code)) continue;
      seen.set(code, { code, name: readableName(voice.name), espeakName });
    }
    return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
  });
  return languagesPromise;
}

export function voiceId(language: string, variant: string): string {
  return variant ? `standard:${language}+${variant}` : `standard:${language}`;
}

/** A standard or a neural voice, as a request resolves it. */
export type AnyVoice = ResolvedVoice | NeuralVoice;

/** "en-gb" → "British English", for a language only a neural voice speaks. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * All languages with their voices (SPEC §3 "Language"), for GET /convertor/voices: the
 * standard engine's, plus the neural voices installed in `voicesDir` (none without one).
 */
export async function listVoices(voicesDir?: string): Promise<Language[]> {
  const standard = await listStandardVoices();
  const neural = await listNeuralVoices(voicesDir);
  for (const voice of neural) {
    let language = standard.find((l) => l.language_code.toLowerCase() === voice.language);
    if (!language) {
      language = {
        language_code: voice.language,
        language_name: languageName(voice.language),
        voices: [],
      };
      standard.push(language);
    }
    // Neural voices first: they are the default engine's (SPEC §9).
    const firstStandard = language.voices.findIndex((v) => v.engine === 'standard');
    language.voices.splice(
      firstStandard < 0 ? language.voices.length : firstStandard,
      0,
      neuralCatalogueVoice(voice),
    );
  }
  return standard.sort((a, b) => a.language_name.localeCompare(b.language_name));
}

async function listStandardVoices(): Promise<Language[]> {
  const languages = await catalogueLanguages();
  return languages.map((language) => ({
    language_code: language.code,
    language_name: language.name,
    voices: VARIANTS.map(
      (variant): Voice => ({
        id: voiceId(language.code, variant.variant),
        name: variant.name,
        gender: variant.gender,
        engine: 'standard',
        effects: [...STANDARD_EFFECTS],
        capabilities: { pitch: true, emphasis: true },
      }),
    ),
  }));
}

/** Finds a voice by id, or undefined. */
export async function resolveVoice(id: string): Promise<ResolvedVoice | undefined> {
  const match = /^standard:([^+\s]+)(?:\+([\w-]+))?$/.exec(id);
  if (!match?.[1]) return undefined;
  const language = match[1];
  const variant = VARIANTS.find((v) => v.variant === (match[2] ?? ''));
  if (!variant) return undefined;
  const languages = await catalogueLanguages();
  const known = languages.find((l) => l.code.toLowerCase() === language.toLowerCase());
  if (!known) return undefined;
  return {
    engine: 'standard',
    id: voiceId(known.code, variant.variant),
    language: known.code,
    espeakName: known.espeakName,
    variant,
    espeakVoice: variant.variant ? `${known.espeakName}+${variant.variant}` : known.espeakName,
  };
}

/** The voice for a `<voice language="…">` switch: the language's own voice, same gender. */
export async function voiceForLanguage(
  language: string,
  gender: 'male' | 'female',
): Promise<ResolvedVoice | undefined> {
  const languages = await catalogueLanguages();
  const lower = language.toLowerCase();
  const known =
    languages.find((l) => l.code.toLowerCase() === lower) ??
    languages.find((l) => l.code.toLowerCase().split('-')[0] === lower.split('-')[0]);
  if (!known) return undefined;
  const variant = gender === 'female' ? 'f1' : '';
  return resolveVoice(voiceId(known.code, variant));
}
