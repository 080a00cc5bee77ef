import type { EngineRegistry } from '../engines/registry.js';
import type { EngineVoice, SpeechEngine } from '../engines/types.js';
import { SpeechError } from '../errors.js';

/** A voice and the engine that renders it. */
export interface VoiceChoice {
  engine: SpeechEngine;
  voice: EngineVoice;
}

/** The request's voice, or an `unknown_voice` error saying what is wrong. */
export async function mainVoice(registry: EngineRegistry, id: string): Promise<VoiceChoice> {
  const engine = registry.forVoice(id);
  if (!engine) throw new SpeechError('unknown_voice', `Unknown voice "${id}".`);
  const voice = await engine.resolve(id);
  if (voice) return { engine, voice };
  if ((await engine.voices()).length === 0) {
    throw new SpeechError(
      'unknown_voice',
      `The ${engine.id} engine has no voices installed; choose another engine.`,
    );
  }
  throw new SpeechError('unknown_voice', `Unknown voice "${id}".`);
}

/**
 * Resolves the `<voice>` switches of a document, remembering the answers. A language switch
 * takes the main voice's engine where it speaks the language, else any other engine's voice
 * (so a neural voice's text can quote a language only espeak-ng speaks).
 */
export class VoiceLookup {
  private readonly cache = new Map<string, Promise<VoiceChoice>>();

  constructor(
    private readonly registry: EngineRegistry,
    readonly main: VoiceChoice,
  ) {}

  forItem(item: { voice?: string; language?: string }): Promise<VoiceChoice> {
    const key = `${item.voice ?? ''}|${item.language ?? ''}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.lookUp(item);
      this.cache.set(key, found);
    }
    return found;
  }

  private async lookUp(item: { voice?: string; language?: string }): Promise<VoiceChoice> {
    if (item.voice !== undefined) {
      const engine = this.registry.forVoice(item.voice);
      const voice = await engine?.resolve(item.voice);
      if (!engine || !voice) {
        throw new SpeechError('unknown_voice', `Unknown voice "${item.voice}" in <voice>.`);
      }
      return { engine, voice };
    }
    const language = item.language;
    if (
      language === undefined ||
      language.toLowerCase() === this.main.voice.language.toLowerCase()
    ) {
      return this.main;
    }
    const gender = this.main.voice.gender === 'male' ? 'male' : 'female';
    const engines = [
      this.main.engine,
      ...this.registry.all().filter((e) => e !== this.main.engine),
    ];
    for (const engine of engines) {
      const voice = await engine.voiceForLanguage(language, gender);
      if (voice) return { engine, voice };
    }
    throw new SpeechError('unknown_voice', `No voice speaks the language "${language}".`);
  }
}
