import { createHash } from 'node:crypto';
import {
  defaultSampleRate,
  type Language,
  PREVIEW_SENTENCES,
  VOICE_SETTINGS_DEFAULTS,
  type VoiceSettings,
} from '@parla/contract';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';

/** The settings of a voice's preview: its sample sentence, mp3 at the engine's SPEC rate. */
function previewSettings(
  languages: readonly Language[],
  voiceId: string,
): VoiceSettings | undefined {
  for (const language of languages) {
    const voice = language.voices.find((v) => v.id === voiceId);
    if (!voice) continue;
    const primary = language.language_code.toLowerCase().split('-')[0] ?? 'en';
    return {
      ...VOICE_SETTINGS_DEFAULTS,
      engine: voice.engine,
      voice_id: voice.id,
      language_code: language.language_code,
      text: PREVIEW_SENTENCES[primary] ?? PREVIEW_SENTENCES.en ?? '',
      output_format: 'mp3',
      sample_rate: defaultSampleRate(voice.engine, 'mp3'),
      voice_effects: [],
    };
  }
  return undefined;
}

/**
 * Short samples of the voices for the voice picker (issue 15): rendered once per voice and
 * kept in storage under `previews/`; free (no characters are counted) and the same for
 * everyone. Two requests for the same sample at once render it once.
 */
export function createPreviews(speech: SpeechService, storage: ObjectStorage) {
  const rendering = new Map<string, Promise<void>>();
  return {
    /** The sample's mp3, or undefined for an unknown voice; a rendering's error is thrown. */
    async read(voiceId: string) {
      const settings = previewSettings(await speech.listVoices(), voiceId);
      if (!settings) return undefined;
      const digest = createHash('sha256').update(JSON.stringify(settings)).digest('base64url');
      const key = `previews/${digest}.mp3`;
      if (!(await storage.stat(key))) {
        let pending = rendering.get(key);
        if (!pending) {
          pending = speech.render(settings, key).then(() => undefined);
          rendering.set(key, pending);
          void pending.finally(() => rendering.delete(key)).catch(() => {});
        }
        await pending;
      }
      return storage.read(key);
    },
  };
}
