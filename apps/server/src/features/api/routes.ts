import {
  type ApiSpeechInput,
  ApiSpeechInputSchema,
  ApiSpeechResultSchema,
  type ErrorResponse,
  ErrorResponseSchema,
  type Language,
  type VoiceSettings,
  VoiceSettingsSchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DURATION_HEADER, sendConversionAudio } from '../../http/conversion-audio.js';
import { convertRequest, IdempotencyHeadersSchema } from '../../http/idempotency.js';
import { sendWarnings } from '../../http/warnings.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { type ConversionsPerMinute, conversionRateLimit } from '../../plugins/rate-limit.js';
import type {
  Conversion,
  ConversionService,
} from '../../services/conversion/conversion-service.js';
import { IDEMPOTENCY_MESSAGES } from '../../services/conversion/messages.js';
import { apiVoiceSettings, findLanguage, findVoice } from '../../services/conversion/settings.js';

export interface PublicApiOptions {
  conversions: ConversionService;
  storage: ObjectStorage;
  /** Conversions one caller may start per minute, by plan, as on the convertor. */
  conversionsPerMinute: ConversionsPerMinute;
}

export const API_MESSAGES = {
  ...IDEMPOTENCY_MESSAGES,
  unknownVoice: (voice: string) =>
    `voice: there is no voice "${voice}"; GET /api/convertor/voices lists the voices.`,
  unknownLanguage: (language: string) =>
    `language: no voice speaks "${language}"; GET /api/convertor/voices lists the languages.`,
  noVoice: (engine: string, language: string) =>
    `No ${engine} voice speaks ${language}; choose the other engine or another language.`,
} as const;

/** The API's own names of the settings' fields, so that an error names what the caller sent. */
const API_FIELDS: Record<string, string> = {
  voice_id: 'voice',
  language_code: 'language',
  output_format: 'format',
  master_speed: 'speed',
  master_volume: 'volume',
  master_pitch: 'pitch',
};

const refusal = (path: string, message: string) => ({ message, errors: [{ path, message }] });

/** The full settings of a call, or its refusal naming the field of the call to fix. */
function speechSettings(
  languages: readonly Language[],
  input: ApiSpeechInput,
): { ok: true; settings: VoiceSettings } | { ok: false; error: ErrorResponse } {
  if (input.voice && !findVoice(languages, input.voice)) {
    return { ok: false, error: refusal('voice', API_MESSAGES.unknownVoice(input.voice)) };
  }
  if (!input.voice && input.language && !findLanguage(languages, input.language)) {
    return { ok: false, error: refusal('language', API_MESSAGES.unknownLanguage(input.language)) };
  }
  const settings = apiVoiceSettings(languages, input);
  if (!settings.voice_id) {
    const message = API_MESSAGES.noVoice(settings.engine, settings.language_code);
    return { ok: false, error: refusal(input.engine ? 'engine' : 'language', message) };
  }
  const checked = VoiceSettingsSchema.safeParse(settings);
  if (checked.success) return { ok: true, settings: checked.data };
  const errors = checked.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? 'text');
    return { path: API_FIELDS[field] ?? field, message: issue.message };
  });
  return {
    ok: false,
    error: { message: errors[0]?.message ?? 'The request is not valid.', errors },
  };
}

/** Headers that carry a conversion's facts beside its audio. */
function factHeaders(reply: FastifyReply, conversion: Conversion) {
  const { body } = conversion;
  reply.header('x-parla-characters', String(conversion.characters ?? 0));
  if (body.path) reply.header('x-parla-audio-path', body.path);
  if (body.marks_path) reply.header('x-parla-marks-path', body.marks_path);
  if (body.subtitles_path) reply.header('x-parla-subtitles-path', body.subtitles_path);
  if (body.duration !== null && body.duration !== undefined) {
    reply.header(DURATION_HEADER, body.duration.toFixed(3));
  }
  sendWarnings(reply, body.warnings ?? []);
}

/**
 * The public API (issue 16): `POST /api/v1/speech`, one call with defaults answering the audio
 * itself, and the OpenAI-compatible `POST /v1/audio/speech` with `GET /v1/models` (openai.ts).
 * Both use the convertor's conversion, so characters, limits and files are the same as in the
 * web app.
 */
export const publicApiRoutes: FastifyPluginAsyncZod<PublicApiOptions> = async (app, options) => {
  const { conversions, storage } = options;

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
    // Streamed: the duration is known at the end (a trailer), or now if it has ended since
    // (a header): sendConversionAudio decides.
    const duration = async () => {
      for (let tries = 0; tries < 100; tries++) {
        const done = await conversions.describe(file);
        if (typeof done?.body.duration === 'number') return done.body.duration.toFixed(3);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return '';
    };
    await sendConversionAudio(
      request,
      reply,
      conversions,
      storage,
      file,
      conversion.body.duration === null ? duration : undefined,
    );
    return reply;
  }

  app.post(
    '/speech',
    {
      config: { rateLimit: conversionRateLimit(options.conversionsPerMinute) },
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
      const checked = speechSettings(await conversions.voices(), request.body);
      if (!checked.ok) return reply.code(400).send(checked.error);
      const json =
        (request.headers.accept ?? '').includes('application/json') &&
        !(request.headers.accept ?? '').includes('audio/');
      const made = await convertRequest(request, reply, conversions, checked.settings, !json);
      if ('refused' in made) {
        const { status, message } = made.refused;
        return reply.code(status).send(refusal('Idempotency-Key', message));
      }
      return answer(request, reply, made.conversion, json);
    },
  );
};
