import compress from '@fastify/compress';
import {
  ConvertResultSchema,
  countCharacters,
  ErrorResponseSchema,
  type PlanType,
  VoiceSettingsSchema,
  VoicesQuerySchema,
  VoicesResponseSchema,
  VoicesSummarySchema,
} from '@parla/contract';
import { catalogueSummary, isClientError, SpeechError, selectVoices } from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import type { Metrics } from '../../lib/metrics.js';
import type { Scheduler } from '../../lib/schedule.js';
import type { SpeechService } from '../../lib/speech.js';
import { sendStoredObject } from '../../lib/storage/send.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { clientError } from '../../plugins/error-handler.js';
import { callerPlan } from '../../plugins/rate-limit.js';
import { DEFAULT_PLAN_CATALOGUE } from '../plan/plan-catalogue.js';
import { createConversionRepository } from './conversion-repository.js';
import { timingRoutes } from './marks.js';
import { createUsageRepository, type VisitorLimits } from './usage-repository.js';
import { visitorId } from './visitor.js';

export interface ConvertorRoutesOptions {
  db: Db;
  speech: SpeechService;
  storage: ObjectStorage;
  /** Runs the audio expiry once per installation. */
  scheduler: Scheduler;
  metrics: Metrics;
  visitorLimits: VisitorLimits;
  /** Conversions one caller may start per minute, by plan (lib/limits.ts). */
  conversionsPerMinute: Record<'anonymous' | PlanType, number>;
}

export const CONVERT_MESSAGES = {
  converted: 'Your audio is ready.',
  tooLong: (characters: number, limit: number) =>
    `This text has ${characters} characters; your plan converts at most ${limit} at a time.`,
  noCharactersLeft: (remaining: number) =>
    `You have ${remaining} characters left, not enough for this text. You can purchase more characters!`,
  failed: 'The conversion failed on our side. Please try again.',
  gone: 'This audio has expired. Please convert the text again.',
} as const;

const AudioParamsSchema = z.object({
  file: z.string().regex(/^[\w-]{22}\.(mp3|ogg|wav)$/, { error: 'Unknown audio file.' }),
});

const ConversionIdParamsSchema = z.object({
  id: z.string().regex(/^[\w-]{22}$/, { error: 'Unknown audio file.' }),
});

const failure = (message: string) => ({ success: false, message, path: null, duration: null });

export const convertorRoutes: FastifyPluginAsyncZod<ConvertorRoutesOptions> = async (
  app,
  options,
) => {
  const { db, speech, visitorLimits, metrics } = options;
  const usage = createUsageRepository(db);
  const conversions = createConversionRepository(db, options.storage);
  const free = DEFAULT_PLAN_CATALOGUE.FREE;

  // The convertor answers every client error in its own shape, {success: false, message}, so
  // the page shows one kind of alert: schema failures (with every field's message), bad JSON,
  // too many conversions. Anything else goes to the app's handler.
  app.setErrorHandler((error, _request, reply) => {
    const answer = clientError(error);
    if (!answer) throw error;
    return reply.code(answer.status).send({ ...answer.body, ...failure(answer.body.message) });
  });

  options.scheduler.every('audio-expiry', 5 * 60 * 1000, async () => {
    const count = await conversions.purgeExpired();
    if (count > 0) app.log.info({ count }, 'expired audio removed');
  });

  // The catalogue is about 150 kB of JSON: served gzip- (or brotli-) compressed to clients
  // that accept it. The compression hook is scoped to these routes (Fastify encapsulation).
  await app.register(async (scope) => {
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
        reply.header('cache-control', 'public, max-age=300');
        return selectVoices(await speech.listVoices(), request.query);
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
        reply.header('cache-control', 'public, max-age=300');
        return catalogueSummary(await speech.listVoices());
      },
    );
  });

  type Spent =
    | { ok: false; error: string; status: 400 | 402 }
    | { ok: true; visitor: string | null; refund: () => Promise<void> };

  /** Spends the characters of a conversion; answers how to give them back, or a failure. */
  async function spend(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User | undefined,
    characters: number,
  ): Promise<Spent> {
    const perConvert = user ? user.count_characters_per_convert : free.count_characters_per_convert;
    if (characters > perConvert) {
      return { ok: false, error: CONVERT_MESSAGES.tooLong(characters, perConvert), status: 400 };
    }
    if (user) {
      const spent = await usage.spendUser(user.id, characters);
      if (!spent.ok)
        return {
          ok: false,
          error: CONVERT_MESSAGES.noCharactersLeft(spent.remaining),
          status: 402,
        };
      return { ok: true, visitor: null, refund: () => usage.refundUser(user.id, characters) };
    }
    const visitor = visitorId(request, reply);
    const keys = [
      { key: `visitor:${visitor}`, limit: visitorLimits.perVisitor },
      { key: `ip:${request.ip}`, limit: visitorLimits.perIp },
    ];
    const spent = await usage.spendVisitor(keys, characters);
    if (!spent.ok)
      return { ok: false, error: CONVERT_MESSAGES.noCharactersLeft(spent.remaining), status: 402 };
    return {
      ok: true,
      visitor,
      refund: () =>
        usage.refundVisitor(
          keys.map((k) => k.key),
          characters,
        ),
    };
  }

  app.post(
    '/',
    {
      config: {
        rateLimit: {
          max: async (request: FastifyRequest, key: string) =>
            options.conversionsPerMinute[await callerPlan(app, request, key)],
          timeWindow: 60_000,
        },
      },
      schema: {
        tags: ['convertor'],
        summary: 'Convert text or SSML to speech; answers the address of the audio',
        body: VoiceSettingsSchema,
        response: {
          200: ConvertResultSchema,
          400: ConvertResultSchema,
          402: ConvertResultSchema,
          // 413, 415, 429: in the same shape as every failure of the convertor.
          '4xx': ConvertResultSchema,
          500: ConvertResultSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await app.resolveUser(request);
      const characters = countCharacters(request.body.text);
      const { engine } = request.body;
      const spent = await spend(request, reply, user, characters);
      if (!spent.ok) {
        metrics.conversions.inc({ engine, outcome: 'refused' });
        return reply.code(spent.status).send(failure(spent.error));
      }
      try {
        const started = performance.now();
        const id = conversions.newId();
        const result = await speech.render(
          request.body,
          conversions.key(id, request.body.output_format),
        );
        const stored = await conversions.create({
          id,
          userId: user?.id ?? null,
          visitorId: spent.visitor,
          format: result.format,
          mimeType: result.mimeType,
          size: result.size,
          duration: result.duration,
          characters,
        });
        metrics.conversions.inc({ engine, outcome: 'success' });
        metrics.characters.inc({ engine }, characters);
        metrics.synthesisSeconds.observe({ engine }, (performance.now() - started) / 1000);
        metrics.audioSeconds.inc({ engine }, result.duration);
        metrics.queueWait.observe(result.queuedSeconds);
        if (result.cached) metrics.cacheHits.inc({ engine });
        return {
          success: true,
          message: CONVERT_MESSAGES.converted,
          path: `/api/convertor/audio/${stored.file}`,
          duration: result.duration,
          marks_path: `/api/convertor/marks/${id}`,
          subtitles_path: `/api/convertor/subtitles/${id}`,
        };
      } catch (error) {
        await spent.refund();
        metrics.conversionFailed(engine, error instanceof SpeechError ? error.code : 'internal');
        // Bad input, an unknown voice or a limit: the client's to fix, and the message says
        // what. Anything else is ours: logged, and answered without its internals.
        if (error instanceof SpeechError && isClientError(error.code)) {
          return reply.code(400).send(failure(error.message));
        }
        request.log.error({ err: error }, 'conversion failed');
        return reply.code(500).send(failure(CONVERT_MESSAGES.failed));
      }
    },
  );

  // Speech marks and subtitles: whoever can fetch the audio can fetch them (marks.ts).
  await app.register(
    timingRoutes({
      storage: options.storage,
      params: ConversionIdParamsSchema,
      notFound: CONVERT_MESSAGES.gone,
      tag: 'convertor',
      userOf: () => undefined,
      find: async (id) => {
        const conversion = await conversions.findLive(id);
        return (
          conversion && {
            audioKey: conversions.key(conversion.id, conversion.format),
            duration: conversion.duration,
            name: `parla-${conversion.id}`,
          }
        );
      },
    }),
  );

  app.get(
    '/audio/:file',
    {
      schema: {
        tags: ['convertor'],
        summary: 'The converted audio (supports Range requests)',
        params: AudioParamsSchema,
        // The body is the audio stream (200, or 206 for a Range request).
        response: { 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const [id = ''] = request.params.file.split('.');
      const conversion = await conversions.findLive(id);
      if (
        !conversion ||
        conversions.fileName(conversion.id, conversion.format) !== request.params.file
      ) {
        return reply.code(404).send({ message: CONVERT_MESSAGES.gone });
      }
      // Not in the response schema on purpose: a stream is not JSON.
      const sent = await sendStoredObject(
        request,
        reply as unknown as FastifyReply,
        options.storage,
        conversions.key(conversion.id, conversion.format),
        { 'content-type': conversion.mime_type, 'cache-control': 'private, max-age=3600' },
      );
      if (!sent) return reply.code(404).send({ message: CONVERT_MESSAGES.gone });
      return reply;
    },
  );
};
