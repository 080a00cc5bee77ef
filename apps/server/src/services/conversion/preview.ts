import { createHash } from 'node:crypto';
import {
  AudioBodySchema,
  type Language,
  PREVIEW_SENTENCES,
  VOICE_SETTINGS_DEFAULTS,
  VoicePreviewQuerySchema,
  type VoiceSettings,
} from '@parla/contract';
import { SpeechError } from '@parla/speech';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';

export interface PreviewRoutesOptions {
  speech: SpeechService;
  storage: ObjectStorage;
}

const MessageSchema = z.object({ message: z.string() });

/** The settings of a voice's preview: its sample sentence, mp3 at the engine's SPEC rate. */
export function previewSettings(
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
      sample_rate: voice.engine === 'neural' ? 48000 : 24000,
      voice_effects: [],
    };
  }
  return undefined;
}

/**
 * GET /convertor/voices/preview?voice=: a short sample of a voice for the voice picker
 * (issue 15). Rendered once per voice and kept in storage under `previews/`; free (no
 * characters are counted) and the same for everyone, so it is cached by browsers too.
 */
export const previewRoutes: FastifyPluginAsyncZod<PreviewRoutesOptions> = async (
  app,
  { speech, storage },
) => {
  const rendering = new Map<string, Promise<void>>();
  app.get(
    '/voices/preview',
    {
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: {
        tags: ['convertor'],
        summary: "A voice's short sample (mp3), free of charge",
        querystring: VoicePreviewQuerySchema,
        produces: ['audio/mpeg'],
        response: {
          200: AudioBodySchema,
          '4xx': MessageSchema,
          503: MessageSchema,
        },
      },
    },
    async (request, reply) => {
      const settings = previewSettings(await speech.listVoices(), request.query.voice);
      if (!settings) {
        return reply.code(404).send({ message: `Unknown voice "${request.query.voice}".` });
      }
      const digest = createHash('sha256').update(JSON.stringify(settings)).digest('base64url');
      const key = `previews/${digest}.mp3`;
      if (!(await storage.stat(key))) {
        let pending = rendering.get(key);
        if (!pending) {
          pending = speech.render(settings, key).then(() => undefined);
          rendering.set(key, pending);
          void pending.finally(() => rendering.delete(key)).catch(() => {});
        }
        try {
          await pending;
        } catch (error) {
          if (error instanceof SpeechError && error.code === 'provider_unavailable') {
            return reply.code(503).send({ message: error.message });
          }
          throw error;
        }
      }
      const body = await storage.read(key);
      if (!body)
        return reply.code(404).send({ message: `Unknown voice "${request.query.voice}".` });
      // A stream, not the schema's JSON: sent as it is.
      return (reply as unknown as FastifyReply)
        .header('content-type', 'audio/mpeg')
        .header('cache-control', 'public, max-age=86400')
        .send(body);
    },
  );
};
