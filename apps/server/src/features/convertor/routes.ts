import { Readable } from 'node:stream';
import compress from '@fastify/compress';
import {
  AudioBodySchema,
  ConvertQuerySchema,
  type ConvertResult,
  ConvertResultSchema,
  countCharacters,
  ErrorResponseSchema,
  type PlanType,
  type VoiceSettings,
  VoiceSettingsSchema,
  VoicesQuerySchema,
  VoicesResponseSchema,
  VoicesSummarySchema,
} from '@parla/contract';
import {
  catalogueSummary,
  isClientError,
  MIME_TYPES,
  SpeechError,
  selectVoices,
} from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import { timingRoutes } from '../../http/timing-routes.js';
import type { Metrics } from '../../lib/metrics.js';
import type { Scheduler } from '../../lib/schedule.js';
import type { SpeechService, StoredSynthesis } from '../../lib/speech.js';
import { sendStoredObject } from '../../lib/storage/send.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { clientError } from '../../plugins/error-handler.js';
import { callerPlan } from '../../plugins/rate-limit.js';
import { createConversionRepository } from '../../services/conversion/conversion-repository.js';
import { previewRoutes } from '../../services/conversion/preview.js';
import {
  createUsageRepository,
  type VisitorLimits,
} from '../../services/conversion/usage-repository.js';
import { visitorId } from '../../services/conversion/visitor.js';
import { DEFAULT_PLAN_CATALOGUE } from '../../services/plans/plan-catalogue.js';

/** A conversion's answer: its status and SPEC §7 body; `file` and `characters` when it worked. */
export interface Conversion {
  status: 200 | 400 | 402 | 500 | 503;
  body: ConvertResult & { marks_path?: string; subtitles_path?: string };
  /** The audio's file name (`<id>.<format>`) for `serveAudio`. */
  file?: string;
  /** Characters charged. */
  characters?: number;
}

/** What the public API (features/api) uses of the convertor. */
export interface Converter {
  convert(
    request: FastifyRequest,
    reply: FastifyReply,
    settings: VoiceSettings,
    stream: boolean,
  ): Promise<Conversion>;
  serveAudio(request: FastifyRequest, reply: FastifyReply, file: string): Promise<FastifyReply>;
  /** A finished conversion's answer again (an idempotent retry), or undefined once expired. */
  describe(file: string): Promise<Conversion | undefined>;
}

export interface ConvertorRoutesOptions {
  /** Receives the convertor's conversion and audio functions (for the public API). */
  expose?: (converter: Converter) => void;
  db: Db;
  speech: SpeechService;
  storage: ObjectStorage;
  /** Runs the audio expiry once per installation. */
  scheduler: Scheduler;
  metrics: Metrics;
  visitorLimits: VisitorLimits;
  /** Conversions one caller may start per minute, by plan (lib/limits.ts). */
  conversionsPerMinute: Record<'anonymous' | PlanType, number>;
  /** A streamed rendering nobody has read for this long is stopped (default 10 s). */
  abandonedAfterMs?: number;
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

/** A streamed rendering nobody has read for this long is stopped. */
const ABANDONED_AFTER_MS = 10_000;

const failure = (message: string) => ({ success: false, message, path: null, duration: null });

export const convertorRoutes: FastifyPluginAsyncZod<ConvertorRoutesOptions> = async (
  app,
  options,
) => {
  const { db, speech, visitorLimits, metrics } = options;
  const abandonedAfterMs = options.abandonedAfterMs ?? ABANDONED_AFTER_MS;
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
        summary:
          'Convert text or SSML to speech; answers the address of the audio (with stream=true at once, the audio playing as it renders)',
        querystring: ConvertQuerySchema,
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
      const answer = await convert(request, reply, request.body, request.query.stream);
      return reply.code(answer.status).send(answer.body);
    },
  );

  /**
   * One conversion, charged, rendered (whole, or streamed: answered at its first bytes) and
   * recorded; as POST /convertor and the public API (features/api) make it.
   */
  async function convert(
    request: FastifyRequest,
    reply: FastifyReply,
    settings: VoiceSettings,
    stream: boolean,
  ): Promise<Conversion> {
    const user = await app.resolveUser(request);
    const characters = countCharacters(settings.text);
    const { engine, output_format: format } = settings;
    const spent = await spend(request, reply, user, characters);
    if (!spent.ok) {
      metrics.conversions.inc({ engine, outcome: 'refused' });
      return { status: spent.status, body: failure(spent.error) };
    }
    const started = performance.now();
    const id = conversions.newId();
    const key = conversions.key(id, format);
    /** The conversion rendered: its record, so its audio and marks are found later. */
    const record = async (result: StoredSynthesis) => {
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
      return stored;
    };
    /** A conversion that failed: the characters back, and an answer that says whose fault. */
    const failed = async (error: unknown) => {
      await spent.refund();
      metrics.conversionFailed(engine, error instanceof SpeechError ? error.code : 'internal');
      // Bad input, an unknown voice or a limit: the client's to fix, and the message says
      // what. Anything else is ours: logged, and answered without its internals.
      if (error instanceof SpeechError && isClientError(error.code)) {
        return { status: 400 as const, body: failure(error.message) };
      }
      if (error instanceof SpeechError && error.code === 'provider_unavailable') {
        request.log.warn({ err: error }, 'voice provider failed');
        return { status: 503 as const, body: failure(error.message) };
      }
      request.log.error({ err: error }, 'conversion failed');
      return { status: 500 as const, body: failure(CONVERT_MESSAGES.failed) };
    };
    const timings = {
      marks_path: `/api/convertor/marks/${id}`,
      subtitles_path: `/api/convertor/subtitles/${id}`,
    };

    if (stream) {
      // Answered as soon as the first bytes are out; the rest plays as it is rendered
      // (docs/decisions/018-streamed-conversions.md).
      const rendering = speech.renderLive(settings, key, id);
      let answered = false;
      void rendering.done
        .then(record, async (error: unknown) => {
          // Before the answer, the failure is answered below; a rendering its listeners
          // abandoned keeps its charge (the audio was asked for, as a whole file would be).
          if (answered && !(await speech.live.abandoned(id))) await failed(error);
        })
        .catch((error: unknown) => request.log.error({ err: error }, 'streamed conversion'));
      try {
        await rendering.first;
      } catch (error) {
        return failed(error);
      }
      answered = true;
      const file = conversions.fileName(id, format);
      return {
        status: 200,
        body: {
          success: true,
          message: CONVERT_MESSAGES.converted,
          path: `/api/convertor/audio/${file}`,
          duration: null,
          streaming: true,
          ...timings,
        },
        file,
        characters,
      };
    }

    try {
      const result = await speech.render(settings, key);
      const stored = await record(result);
      return {
        status: 200,
        body: {
          success: true,
          message: CONVERT_MESSAGES.converted,
          path: `/api/convertor/audio/${stored.file}`,
          duration: result.duration,
          ...timings,
        },
        file: stored.file,
        characters,
      };
    } catch (error) {
      return failed(error);
    }
  }
  async function describe(file: string): Promise<Conversion | undefined> {
    const [id = ''] = file.split('.');
    const conversion = await conversions.findLive(id);
    if (!conversion || conversions.fileName(conversion.id, conversion.format) !== file) {
      return undefined;
    }
    return {
      status: 200,
      body: {
        success: true,
        message: CONVERT_MESSAGES.converted,
        path: `/api/convertor/audio/${file}`,
        duration: conversion.duration,
        marks_path: `/api/convertor/marks/${id}`,
        subtitles_path: `/api/convertor/subtitles/${id}`,
      },
      file,
      characters: conversion.characters,
    };
  }
  options.expose?.({ convert, serveAudio, describe });

  await app.register(previewRoutes, { speech, storage: options.storage });

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
      await serveAudio(request, reply as unknown as FastifyReply, request.params.file);
    },
  );

  /** A conversion's audio: stored (with Range), or as it streams while it renders. */
  async function serveAudio(
    request: FastifyRequest,
    reply: FastifyReply,
    fileName: string,
  ): Promise<FastifyReply> {
    const [id = '', format = ''] = fileName.split('.');
    const conversion = await conversions.findLive(id);
    // No record yet: it may be rendering as a stream (POST ?stream=true), or have just
    // ended, its file stored a moment before its record.
    if (!conversion && /^(mp3|ogg|wav)$/.test(format)) {
      const state = await speech.live.state(id);
      const streamed = state === 'live' ? await speech.live.read(id) : undefined;
      if (streamed) {
        return sendLive(request, reply, id, format, streamed);
      }
      if (state === 'failed') return reply.code(404).send({ message: CONVERT_MESSAGES.failed });
      if (state === 'ended') {
        const sent = await sendStoredObject(
          request,
          reply,
          options.storage,
          conversions.key(id, format),
          {
            'content-type': MIME_TYPES[format as 'mp3'],
            'cache-control': 'private, max-age=3600',
          },
        );
        if (sent) return reply;
      }
    }
    if (!conversion || conversions.fileName(conversion.id, conversion.format) !== fileName) {
      return reply.code(404).send({ message: CONVERT_MESSAGES.gone });
    }
    // Not in the response schema on purpose: a stream is not JSON.
    const sent = await sendStoredObject(
      request,
      reply,
      options.storage,
      conversions.key(conversion.id, conversion.format),
      { 'content-type': conversion.mime_type, 'cache-control': 'private, max-age=3600' },
    );
    if (!sent) return reply.code(404).send({ message: CONVERT_MESSAGES.gone });
    return reply;
  }

  /**
   * A rendering still being streamed: its bytes as they come, without a length (chunked), not
   * cached. A failure after the first bytes breaks the connection, so the player reports an
   * error instead of a silent end; the last reader gone stops the rendering.
   */
  async function sendLive(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    format: string,
    chunks: AsyncIterable<Uint8Array>,
  ): Promise<FastifyReply> {
    const iterator = chunks[Symbol.asyncIterator]();
    // Nothing is sent before the first bytes: a rendering that failed answers as JSON.
    let first: IteratorResult<Uint8Array>;
    try {
      first = await iterator.next();
    } catch {
      return reply.code(404).send({ message: CONVERT_MESSAGES.failed });
    }
    await speech.live.attach(id);
    let finished = false;
    const body = Readable.from(
      (async function* () {
        try {
          if (!first.done) yield first.value;
          for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
            yield next.value;
          }
          finished = true;
        } catch (error) {
          request.log.warn({ err: error, id }, 'streamed audio failed');
          // Cut off without the last chunk, so that the client reads an error, not an end.
          reply.raw.destroy();
          throw error;
        }
      })(),
    );
    // The last reader gone (on any server) before the end: a player that seeks or reconnects
    // comes back at once, so only a rendering nobody has read for a while is stopped.
    reply.raw.once('close', async () => {
      const left = await speech.live.detach(id);
      if (finished || left > 0) return;
      setTimeout(async () => {
        if ((await speech.live.readers(id)) === 0 && (await speech.live.state(id)) === 'live') {
          await speech.live.abandon(id);
        }
      }, abandonedAfterMs).unref();
    });
    return (
      reply
        .header(
          'content-type',
          MIME_TYPES[format as keyof typeof MIME_TYPES] ?? 'application/octet-stream',
        )
        .header('cache-control', 'no-store')
        // Chunked even on a connection that closes after it: a stream broken off mid-way must
        // read as an error to the client, never as a complete (shorter) file.
        .header('transfer-encoding', 'chunked')
        .send(body)
    );
  }
};
