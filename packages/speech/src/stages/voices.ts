import type { VoiceGender } from '../document.js';
import type { EngineRegistry } from '../engines/registry.js';
import type { EngineVoice, SpeechEngine } from '../engines/types.js';
import { type SourcePosition, SpeechError } from '../errors.js';
import type { Warnings } from '../warnings.js';

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
    /** Where a `<voice name>` no engine has is reported. */
    private readonly warnings: Warnings,
  ) {}

  forItem(item: VoiceRequest): Promise<VoiceChoice> {
    const key = `${item.voice ?? ''}|${item.language ?? ''}|${item.gender ?? ''}`;
    let found = this.cache.get(key);
    if (!found) {
      found = this.lookUp(item);
      this.cache.set(key, found);
    }
    return found;
  }

  /**
   * SSML 1.1 §3.2.1 with its default `onvoicefailure="priorityselect"`: the name first; a name
   * no engine has is dropped (with a warning) and the language and gender choose.
   */
  private async lookUp(item: VoiceRequest): Promise<VoiceChoice> {
    if (item.voice !== undefined) {
      const engine = this.registry.forVoice(item.voice);
      const voice = await engine?.resolve(item.voice);
      if (engine && voice) return { engine, voice };
      this.warnings.add(
        'voice_not_found',
        `<voice name="${item.voice}"> is not a Parla voice; the voice is chosen by language and gender instead`,
        item.markupAt?.voice,
      );
    }
    const mainLanguage = this.main.voice.language;
    const mainGender = this.main.voice.gender === 'male' ? 'male' : 'female';
    const gender = item.gender === 'male' || item.gender === 'female' ? item.gender : mainGender;
    const language =
      item.language === undefined || speaks(mainLanguage, item.language)
        ? mainLanguage
        : item.language;
    if (language === mainLanguage && gender === mainGender) return this.main;
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

/** What a `<voice>`, `<lang>` or `xml:lang` asks for. */
type VoiceRequest = {
  voice?: string;
  language?: string;
  gender?: VoiceGender;
  /** Where it was asked, for a warning (the first text item that asks for it). */
  markupAt?: { voice?: SourcePosition };
};

/** Whether a voice of `voiceLanguage` ("en-us") answers for `wanted` ("en-US", or just "en"). */
function speaks(voiceLanguage: string, wanted: string): boolean {
  const [have = '', haveRegion] = voiceLanguage.toLowerCase().split('-');
  const [want = '', wantRegion] = wanted.toLowerCase().split('-');
  return have === want && (wantRegion === undefined || wantRegion === haveRegion);
}
