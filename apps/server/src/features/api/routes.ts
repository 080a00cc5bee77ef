import { createHash } from 'node:crypto';
import {
  ApiSpeechInputSchema,
  ApiSpeechResultSchema,
  ErrorResponseSchema,
  type VoiceSettings,
  VoiceSettingsSchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database.js';
import { callerOf } from '../../http/caller.js';
import { sendConversionAudio } from '../../http/conversion-audio.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import type {
  Conversion,
  ConversionService,
} from '../../services/conversion/conversion-service.js';
import { apiVoiceSettings } from '../../services/conversion/settings.js';
import { createIdempotencyRepository } from './idempotency-repository.js';

export interface PublicApiOptions {
  db: Db;
  conversions: ConversionService;
  storage: ObjectStorage;
}

const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1, { error: 'Idempotency-Key must not be empty.' })
    .max(255, { error: 'Idempotency-Key must be at most 255 characters.' })
    .optional(),
});

export const API_MESSAGES = {
  idempotencyNeedsUser:
    'Idempotency-Key: needs a signed-in caller (an API key or a login token), whose answers it keeps.',
  idempotencyReused: 'Idempotency-Key: this key was used for another request; use a new key.',
  idempotencyRunning:
    'Idempotency-Key: the first request with this key is still being answered; retry in a moment.',
} as const;

/** Headers that carry a conversion's facts beside its audio. */
function factHeaders(reply: FastifyReply, conversion: Conversion) {
  const { body } = conversion;
  reply.header('x-parla-characters', String(conversion.characters ?? 0));
  if (body.path) reply.header('x-parla-audio-path', body.path);
  if (body.marks_path) reply.header('x-parla-marks-path', body.marks_path);
  if (body.subtitles_path) reply.header('x-parla-subtitles-path', body.subtitles_path);
  if (body.duration !== null && body.duration !== undefined) {
    reply.header('x-parla-duration', body.duration.toFixed(3));
  }
}

/**
 * The public API (issue 16): `POST /api/v1/speech`, one call with defaults answering the audio
 * itself, and the OpenAI-compatible `POST /v1/audio/speech` with `GET /v1/models` (openai.ts).
 * Both use the convertor's conversion, so characters, limits and files are the same as in the
 * web app.
 */
export const publicApiRoutes: FastifyPluginAsyncZod<PublicApiOptions> = async (app, options) => {
  const { conversions, storage } = options;
  const idempotency = createIdempotencyRepository(options.db);

  /**
   * Answers a conversion: the audio (streamed as it renders), or SPEC §7's JSON when the
   * caller accepts JSON only; failures in the convertor's shape.
   */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    conversion: Conversion,
    json: boolean,
  ) {
    if (conversion.status !== 200 || !conversion.file) {
      return reply.code(conversion.status).send(conversion.body);
    }
    factHeaders(reply, conversion);
    if (json) return reply.send({ ...conversion.body, characters: conversion.characters });
    const { file } = conversion;
    if (conversion.body.duration === null) {
      // Streamed: the duration is known at the end, and sent as a trailer.
      reply.trailer('x-parla-duration', async () => {
        for (let tries = 0; tries < 100; tries++) {
          const done = await conversions.describe(file);
          if (typeof done?.body.duration === 'number') return done.body.duration.toFixed(3);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return '';
      });
    }
    await sendConversionAudio(request, reply, conversions, storage, file);
    return reply;
  }

  app.post(
    '/speech',
    {
      config: { rateLimit: { max: 120, timeWindow: 60_000 } },
      schema: {
        tags: ['api'],
        operationId: 'speak',
        summary:
          'Text or SSML to speech in one call: every voice setting optional; answers the audio as it renders (Accept: application/json for the JSON answer)',
        security: [{ apiKey: [] }, { bearerAuth: [] }, {}],
        headers: IdempotencyHeadersSchema,
        body: ApiSpeechInputSchema,
        produces: ['audio/mpeg', 'audio/ogg', 'audio/wav', 'application/json'],
        response: {
          200: ApiSpeechResultSchema.clone().register(z.globalRegistry, {
            description:
              'audio/mpeg, audio/ogg or audio/wav (streamed); JSON with Accept: application/json',
          }),
          '4xx': ErrorResponseSchema,
          500: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const settings = apiVoiceSettings(await conversions.voices(), request.body);
      const checked = VoiceSettingsSchema.safeParse(settings);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const field = issue?.path.join('.') || 'text';
        return reply.code(400).send({
          message: issue?.message ?? 'The request is not valid.',
          errors: checked.error.issues.map((i) => ({
            path: i.path.join('.') || field,
            message: i.message,
          })),
        });
      }
      const json =
        (request.headers.accept ?? '').includes('application/json') &&
        !(request.headers.accept ?? '').includes('audio/');
      const key = request.headers['idempotency-key'];
      if (!key) {
        const caller = await callerOf(request, reply);
        const conversion = await conversions.convert(caller, checked.data, { stream: !json });
        return answer(request, reply, conversion, json);
      }
      return idempotent(request, reply, key, checked.data, json);
    },
  );

  /** A call with an Idempotency-Key: the first answer again for a retry, charged once. */
  async function idempotent(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    settings: VoiceSettings,
    json: boolean,
  ) {
    const user = await app.resolveUser(request);
    if (!user) {
      return reply.code(400).send({
        message: API_MESSAGES.idempotencyNeedsUser,
        errors: [{ path: 'Idempotency-Key', message: API_MESSAGES.idempotencyNeedsUser }],
      });
    }
    const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    if (!(await idempotency.claim(user.id, key, fingerprint))) {
      const first = await idempotency.find(user.id, key);
      const refuse = (status: 409 | 422, message: string) =>
        reply.code(status).send({ message, errors: [{ path: 'Idempotency-Key', message }] });
      if (first && first.fingerprint !== fingerprint) {
        return refuse(422, API_MESSAGES.idempotencyReused);
      }
      const done = first?.conversion_id
        ? await conversions.describe(first.conversion_id)
        : undefined;
      if (!done) return refuse(409, API_MESSAGES.idempotencyRunning);
      reply.header('idempotent-replayed', 'true');
      return answer(request, reply, done, json);
    }
    const caller = await callerOf(request, reply);
    const conversion = await conversions.convert(caller, settings, { stream: !json });
    if (conversion.status === 200 && conversion.file) {
      await idempotency.settle(user.id, key, conversion.file);
    } else {
      await idempotency.release(user.id, key);
    }
    return answer(request, reply, conversion, json);
  }
};
