import { DEFAULT_ENGINE, type Language, type Voice } from '@parla/contract';
import { findLanguage } from './engines/espeak/catalogue.js';
import type { EngineVoice } from './engines/types.js';
import { registryOf, type SynthesisOptions } from './synthesize.js';

function catalogueVoice(engine: string, voice: EngineVoice): Voice {
  const { capabilities } = voice;
  return {
    id: voice.id,
    name: voice.name,
    gender: voice.gender,
    engine: engine as Voice['engine'],
    effects: [...capabilities.effects],
    capabilities: { pitch: capabilities.pitch, emphasis: capabilities.emphasis },
  };
}

/**
 * All languages with their voices (SPEC §3 "Language"), for GET /convertor/voices: every
 * engine of the configuration, the default engine's voices first in each language (SPEC §9:
 * neural), languages sorted by name (the first engine to list a language names it). Hidden languages (constructed, test) are left out
 * unless the configuration turns them on.
 */
export async function listVoices(options: SynthesisOptions = {}): Promise<Language[]> {
  const languages = new Map<string, Language>();
  for (const engine of registryOf(options).all()) {
    for (const voice of await engine.voices()) {
      const key = voice.language.toLowerCase();
      let language = languages.get(key);
      if (!language) {
        language = {
          language_code: voice.language,
          language_name: voice.languageName,
          voices: [],
        };
        languages.set(key, language);
      }
      language.voices.push(catalogueVoice(engine.id, voice));
    }
  }
  const first = (voice: Voice) => (voice.engine === DEFAULT_ENGINE ? 0 : 1);
  for (const language of languages.values()) language.voices.sort((a, b) => first(a) - first(b));
  return [...languages.values()].sort((a, b) => a.language_name.localeCompare(b.language_name));
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
