import compress from '@fastify/compress';
import etag from '@fastify/etag';
import {
  AudioBodySchema,
  ConvertQuerySchema,
  ConvertResultSchema,
  ErrorResponseSchema,
  VoicePreviewQuerySchema,
  VoiceSettingsSchema,
  VoicesQuerySchema,
  VoicesResponseSchema,
  VoicesSummarySchema,
} from '@parla/contract';
import { catalogueSummary, SpeechError, selectVoices } from '@parla/speech';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendConversionAudio } from '../../http/conversion-audio.js';
import { convertRequest, IdempotencyHeadersSchema } from '../../http/idempotency.js';
import { timingRoutes } from '../../http/timing-routes.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { type ConversionsPerMinute, conversionRateLimit } from '../../plugins/rate-limit.js';
import type { ConversionService } from '../../services/conversion/conversion-service.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';

export interface ConvertorRoutesOptions {
  conversions: ConversionService;
  storage: ObjectStorage;
  /** Conversions one caller may start per minute, by plan (lib/limits.ts). */
  conversionsPerMinute: ConversionsPerMinute;
}

const AudioParamsSchema = z.object({
  file: z.string().regex(/^[\w-]{22}\.(mp3|ogg|wav)$/, { error: 'Unknown audio file.' }),
});

const ConversionIdParamsSchema = z.object({
  id: z.string().regex(/^[\w-]{22}$/, { error: 'Unknown audio file.' }),
});

const MessageSchema = z.object({ message: z.string() });

/**
 * The convertor (SPEC §7): the voice catalogue, conversions, their audio, marks and subtitles,
 * and the voices' samples. Each route hands its work to the conversion service.
 */
export const convertorRoutes: FastifyPluginAsyncZod<ConvertorRoutesOptions> = async (
  app,
  options,
) => {
  const { conversions, storage } = options;

  // The catalogue is about 150 kB of JSON: served gzip- (or brotli-) compressed to clients
  // that accept it. The compression hook is scoped to these routes (Fastify encapsulation).
  // Browsers ask again each time (no-cache) with its ETag, answered 304 while it is the same:
  // a voice or language the operator hides leaves every open page's next list at once.
  await app.register(async (scope) => {
    // etag before compress: its onSend hook hashes the JSON before compression streams it.
    await scope.register(etag);
    await scope.register(compress, { threshold: 1024 });
    const catalogue = scope.withTypeProvider<ZodTypeProvider>();
    catalogue.get(
      '/voices',
      {
        schema: {
          tags: ['convertor'],
          summary:
            'Languages with their voices, each with its engine, effects and capabilities; filtered by language (BCP-47) and engine',
          querystring: VoicesQuerySchema,
          response: { 200: VoicesResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'public, no-cache');
        return selectVoices(await conversions.voices(), request.query);
      },
    );
    catalogue.get(
      '/voices/summary',
      {
        schema: {
          tags: ['convertor'],
          summary: 'How many voices and languages the catalogue offers (the counts the site shows)',
          response: { 200: VoicesSummarySchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, no-cache');
        return catalogueSummary(await conversions.voices());
      },
    );
  });

  app.post(
    '/',
    {
      config: { rateLimit: conversionRateLimit(options.conversionsPerMinute) },
      schema: {
        tags: ['convertor'],
        summary:
          'Convert text or SSML to speech; answers the address of the audio (with stream=true at once, the audio playing as it renders)',
        querystring: ConvertQuerySchema,
        headers: IdempotencyHeadersSchema,
        body: VoiceSettingsSchema,
        response: {
          200: ConvertResultSchema,
          400: ConvertResultSchema,
          402: ConvertResultSchema,
          // 413, 415, 429: in the same shape as every failure of the convertor.
          '4xx': ConvertResultSchema,
          500: ConvertResultSchema,
          // A remote voice provider failed or is throttling: said as it is, nothing charged.
          503: ConvertResultSchema,
        },
      },
    },
    async (request, reply) => {
      const raw = reply as unknown as FastifyReply;
      const made = await convertRequest(
        request,
        raw,
        conversions,
        request.body,
        request.query.stream,
      );
      if ('refused' in made) {
        const { status, message } = made.refused;
        return reply.code(status).send({ success: false, message, path: null, duration: null });
      }
      return reply.code(made.conversion.status).send(made.conversion.body);
    },
  );

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
      let body: Awaited<ReturnType<ConversionService['preview']>>;
      try {
        body = await conversions.preview(request.query.voice);
      } catch (error) {
        if (error instanceof SpeechError && error.code === 'provider_unavailable') {
          return reply.code(503).send({ message: error.message });
        }
        throw error;
      }
      if (!body) {
        return reply.code(404).send({ message: `Unknown voice "${request.query.voice}".` });
      }
      // Rendered once per voice, the same for everyone: cached by browsers too. A stream,
      // not the schema's JSON: sent as it is.
      return (reply as unknown as FastifyReply)
        .header('content-type', 'audio/mpeg')
        .header('cache-control', 'public, max-age=86400')
        .send(body);
    },
  );

  // Speech marks and subtitles: whoever can fetch the audio can fetch them (marks.ts).
  await app.register(
    timingRoutes({
      storage,
      params: ConversionIdParamsSchema,
      notFound: CONVERT_MESSAGES.gone,
      tag: 'convertor',
      userOf: () => undefined,
      find: (id) => conversions.rendering(id),
      live: (id) => conversions.liveMarks(id),
    }),
  );

  app.get(
    '/audio/:file',
    {
      schema: {
        tags: ['convertor'],
        summary: 'The converted audio (supports Range requests)',
        params: AudioParamsSchema,
        produces: ['audio/mpeg', 'audio/ogg', 'audio/wav'],
        // The body is the audio stream (200, or 206 for a Range request).
        response: {
          200: AudioBodySchema,
          206: AudioBodySchema.clone().register(z.globalRegistry, {
            description: 'The asked range of the audio',
          }),
          404: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const raw = reply as unknown as FastifyReply;
      await sendConversionAudio(request, raw, conversions, storage, request.params.file);
    },
  );
};
