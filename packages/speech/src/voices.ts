import { DEFAULT_ENGINE, type Language, type Voice } from '@parla/contract';
import { findLanguage } from './engines/espeak/catalogue.js';
import type { EngineVoice, SpeechEngine } from './engines/types.js';
import { registryOf, type SynthesisOptions } from './synthesize.js';

function catalogueVoice(engineId: string, voice: EngineVoice): Voice {
  const { capabilities } = voice;
  return {
    id: voice.id,
    name: voice.name,
    gender: voice.gender,
    // A provider's engine (`neural:polly`) lists under the product's engine (`neural`).
    engine: engineId.split(':')[0] as Voice['engine'],
    effects: [...capabilities.effects],
    capabilities: { pitch: capabilities.pitch, emphasis: capabilities.emphasis },
    provider: voice.provider,
    ...(voice.available === false && { available: false }),
  };
}

/**
 * The catalogue's entry for a language code: the same code; for a remote provider's voice also
 * the same language without its region when the catalogue has it (Polly's `de-DE` joins
 * espeak-ng's `de`, not a second "German").
 */
function languageEntry(
  languages: Map<string, Language>,
  code: string,
  remote: boolean,
): Language | undefined {
  const key = code.toLowerCase();
  return languages.get(key) ?? (remote ? languages.get(key.split('-')[0] ?? key) : undefined);
}

/**
 * All languages with their voices (SPEC §3 "Language"), for GET /convertor/voices: every
 * engine of the configuration, the default engine's voices first in each language (SPEC §9:
 * neural), languages sorted by name (the first engine to list a language names it). Hidden languages (constructed, test) are left out
 * unless the configuration turns them on.
 */
export async function listVoices(options: SynthesisOptions = {}): Promise<Language[]> {
  const engines = registryOf(options).all();
  const local = mergeCatalogues([], await engineVoices(engines.filter((e) => e.local)));
  return mergeCatalogues(local, await engineVoices(engines.filter((e) => !e.local)));
}

/**
 * A catalogue with more voices in it (a pool's remote engines' voices beside its workers'
 * list): each voice under its language (see `languageEntry`), the default engine's voices
 * first in each language, languages sorted by name (the first to list a language names it).
 */
export function mergeCatalogues(
  catalogue: readonly Language[],
  voices: readonly (Voice & { voice: EngineVoice })[],
): Language[] {
  const languages = new Map<string, Language>();
  for (const language of catalogue) {
    languages.set(language.language_code.toLowerCase(), {
      ...language,
      voices: [...language.voices],
    });
  }
  for (const { voice, ...listed } of voices) {
    let language = languageEntry(languages, voice.language, voice.available !== undefined);
    if (!language) {
      language = { language_code: voice.language, language_name: voice.languageName, voices: [] };
      languages.set(voice.language.toLowerCase(), language);
    }
    language.voices.push(listed);
  }
  const first = (voice: Voice) => (voice.engine === DEFAULT_ENGINE ? 0 : 1);
  for (const language of languages.values()) language.voices.sort((a, b) => first(a) - first(b));
  return [...languages.values()].sort((a, b) => a.language_name.localeCompare(b.language_name));
}

/** The voices of engines, listed as the catalogue lists them (for `mergeCatalogues`). */
export async function engineVoices(
  engines: readonly SpeechEngine[],
): Promise<(Voice & { voice: EngineVoice })[]> {
  const lists = await Promise.all(
    engines.map(async (engine) =>
      (await engine.voices()).map((voice) => ({ ...catalogueVoice(engine.id, voice), voice })),
    ),
  );
  return lists.flat();
}

/**
 * The part of a catalogue a visitor asks for: one language (a BCP-47 code, resolved as the
 * engines resolve it: `zh-CN` → Mandarin, `en` → English (US)), one engine, or both. A
 * language no voice speaks gives an empty list.
 */
export function selectVoices(
  languages: readonly Language[],
  filter: { language?: string | undefined; engine?: string | undefined },
): Language[] {
  const { language, engine } = filter;
  let chosen = [...languages];
  if (engine !== undefined) {
    chosen = chosen
      .map((l) => ({ ...l, voices: l.voices.filter((v) => v.engine === engine) }))
      .filter((l) => l.voices.length > 0);
  }
  if (language !== undefined) {
    const found = findLanguage(chosen, language, (l) => l.language_code);
    chosen = found ? [found] : [];
  }
  return chosen;
}

/**
 * How many natural voices a catalogue offers (the neural engine's: installed Kokoro and Piper
 * models, cloud voices): the site claims natural speech only when there are some (issue 29).
 */
export function naturalVoiceCount(languages: readonly Language[]): number {
  return languages.reduce(
    (sum, l) => sum + l.voices.filter((v) => v.engine === 'neural').length,
    0,
  );
}

/** How many voices and languages a catalogue offers (the site's counts). */
export function catalogueSummary(languages: readonly Language[]): {
  voices: number;
  languages: number;
} {
  return {
    voices: languages.reduce((sum, l) => sum + l.voices.length, 0),
    languages: languages.length,
  };
}
