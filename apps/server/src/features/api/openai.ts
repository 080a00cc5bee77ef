import { Readable } from 'node:stream';
import type { Language, VoiceSettings } from '@parla/contract';
import { AudioBodySchema, VoiceSettingsSchema } from '@parla/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conversionAudioBytes, sendConversionAudio } from '../../http/conversion-audio.js';
import { convertRequest, IdempotencyHeadersSchema } from '../../http/idempotency.js';
import { OpenAiErrorSchema, openAiErrorBody } from '../../http/openai-error.js';
import { sendWarnings, type Warning } from '../../http/warnings.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { type ConversionsPerMinute, conversionRateLimit } from '../../plugins/rate-limit.js';
import type {
  Conversion,
  ConversionService,
} from '../../services/conversion/conversion-service.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';
import { apiVoiceSettings, findVoice } from '../../services/conversion/settings.js';
import { openAiSpeed } from './openai-speed.js';
import { OPENAI_VOICE_GENDERS, openAiVoice, styleOf } from './openai-voices.js';

export interface OpenAiRoutesOptions {
  conversions: ConversionService;
  storage: ObjectStorage;
  /** Conversions one caller may start per minute, by plan, as on the convertor. */
  conversionsPerMinute: ConversionsPerMinute;
}

/** OpenAI's models, and Parla's own names for its two engines. */
export const OPENAI_MODELS = {
  'tts-1': 'neural',
  'tts-1-hd': 'neural',
  'gpt-4o-mini-tts': 'neural',
  'parla-neural': 'neural',
  'parla-standard': 'standard',
} as const;

/** The speeds Parla renders as asked (measured: espeak-ng's rate stops moving past them). */
const SPEED_RANGE = { min: 0.5, max: 3 };

/** OpenAI's formats; Parla renders mp3 and wav (its wav is 16 kHz, SPEC §5). */
const FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
const RENDERED = new Set(['mp3', 'wav']);

const SpeechRequestSchema = z
  .object({
    model: z.string({ error: "Missing required parameter: 'model'." }),
    input: z
      .string({ error: "Missing required parameter: 'input'." })
      .min(1, { error: "'input' must not be empty." }),
    voice: z.string({ error: "Missing required parameter: 'voice'." }).min(1),
    response_format: z
      .enum(FORMATS, {
        error: `'response_format' must be one of ${FORMATS.join(', ')}.`,
      })
      .default('mp3'),
    speed: z
      .number({ error: "'speed' must be a number between 0.25 and 4." })
      .min(0.25, { error: "'speed' must be between 0.25 and 4." })
      .max(4, { error: "'speed' must be between 0.25 and 4." })
      // OpenAI's range is 0.25 to 4; Parla's voices keep to a speed only within 0.5 to 3, so
      // the rest is refused rather than spoken at another speed than asked (issue 27).
      .refine((speed) => speed >= SPEED_RANGE.min && speed <= SPEED_RANGE.max, {
        error: `'speed': Parla's voices speak at ${SPEED_RANGE.min} to ${SPEED_RANGE.max} times their normal speed; ask within that range.`,
      })
      .default(1),
    instructions: z.string().optional(),
    stream_format: z.enum(['audio', 'sse']).optional(),
  })
  .meta({
    examples: [
      { model: 'tts-1', voice: 'nova', input: 'Hello from Parla.', response_format: 'mp3' },
    ],
  });

/** OpenAI's error shape as the answer. */
function openAiError(
  reply: FastifyReply,
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
) {
  return reply.code(status).send(openAiErrorBody(status, message, param, code));
}

/**
 * The settings of an OpenAI request: a Parla voice id, or OpenAI's voice name given a voice of
 * its own; `instructions` as the voice's speaking style where it has the one they ask for.
 */
function settingsFor(
  languages: readonly Language[],
  body: SpeechRequest,
  engine: 'neural' | 'standard',
): { settings: VoiceSettings; warnings: Warning[] } {
  const { master_speed, text } = openAiSpeed(body.speed, body.input);
  const format = body.response_format === 'wav' ? 'wav' : 'mp3';
  const voice = openAiVoice(languages, body.voice, engine)?.id ?? body.voice;
  const settings = apiVoiceSettings(languages, { text, format, speed: master_speed, voice });
  const warnings: Warning[] = [];
  if (body.instructions) {
    const style = styleOf(body.instructions);
    const offered = findVoice(languages, settings.voice_id)?.voice.effects ?? [];
    if (style && offered.includes(style)) settings.effect = style;
    else {
      warnings.push({
        code: 'instructions_ignored',
        message: style
          ? `instructions: the voice ${settings.voice_id} has no ${style} style; it speaks in its own.`
          : `instructions: no speaking style Parla has was found in them; the voice speaks in its own.`,
      });
    }
  }
  return { settings, warnings };
}

type SpeechRequest = z.infer<typeof SpeechRequestSchema>;

/** An error of OpenAI's shape: its message, param and code. */
type Refusal = [message: string, param: string | null, code?: string | null];

/** The voice settings of an OpenAI request, or why it is refused (400). */
function speechSettings(
  languages: readonly Language[],
  body: SpeechRequest,
): { ok: true; settings: VoiceSettings; warnings: Warning[] } | { ok: false; error: Refusal } {
  const engine = OPENAI_MODELS[body.model as keyof typeof OPENAI_MODELS];
  if (!engine) {
    const message = `The model '${body.model}' does not exist; GET /v1/models lists the models.`;
    return { ok: false, error: [message, 'model', 'model_not_found'] };
  }
  if (!RENDERED.has(body.response_format)) {
    const message = `response_format '${body.response_format}' is not supported by Parla; use mp3 or wav.`;
    return { ok: false, error: [message, 'response_format', 'unsupported_value'] };
  }
  const { settings, warnings } = settingsFor(languages, body, engine);
  const checked = VoiceSettingsSchema.safeParse(settings);
  if (checked.success) return { ok: true, settings: checked.data, warnings };
  const issue = checked.error.issues[0];
  if (issue?.path[0] === 'voice_id' || issue?.path[0] === 'engine') {
    const message = `Invalid value for 'voice': '${body.voice}' is neither a Parla voice id nor one of ${Object.keys(OPENAI_VOICE_GENDERS).join(', ')}.`;
    return { ok: false, error: [message, 'voice'] };
  }
  return {
    ok: false,
    error: [issue?.message ?? 'The request is not valid.', issue?.path.join('.') ?? null],
  };
}

/** A conversion that did not happen, said as OpenAI would, naming the parameter to fix. */
function refused(reply: FastifyReply, conversion: Conversion) {
  const { message } = conversion.body;
  const param = /voice/i.test(message)
    ? 'voice'
    : /characters|text/i.test(message)
      ? 'input'
      : null;
  const code = conversion.status === 402 ? 'insufficient_quota' : null;
  return openAiError(reply, conversion.status, message, param, code);
}

/**
 * The audio as OpenAI's Server-Sent Events (`stream_format: "sse"`): `speech.audio.delta` with
 * each piece of audio in base64 as it renders, then `speech.audio.done` with the usage, counted
 * in characters (Parla charges characters, not tokens).
 */
function sendEvents(reply: FastifyReply, audio: AsyncIterable<Uint8Array>, characters: number) {
  const event = (data: object) => `data: ${JSON.stringify(data)}\n\n`;
  const events = Readable.from(
    (async function* () {
      for await (const chunk of audio) {
        yield event({ type: 'speech.audio.delta', audio: Buffer.from(chunk).toString('base64') });
      }
      const usage = { input_tokens: characters, output_tokens: 0, total_tokens: characters };
      yield event({ type: 'speech.audio.done', usage });
    })(),
  );
  return reply
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(events);
}

/**
 * `POST /v1/audio/speech` and `GET /v1/models` as OpenAI's API reference documents them, so
 * OpenAI's SDKs and the tools built on them speak to Parla with `baseURL` set to it and an
 * API key: same request, audio answer, errors in OpenAI's shape.
 */
export const openAiRoutes: FastifyPluginAsyncZod<OpenAiRoutesOptions> = async (app, options) => {
  const { conversions, storage } = options;
  app.setNotFoundHandler((request, reply) =>
    openAiError(reply, 404, `Invalid URL (${request.method} ${request.url})`),
  );
  app.addHook('onRequest', async (request, reply) => {
    if (!(await app.resolveUser(request))) {
      return openAiError(
        reply,
        401,
        'Incorrect API key provided. Create a key on My Account and send it as Authorization: Bearer.',
        null,
        'invalid_api_key',
      );
    }
  });

  app.get(
    '/models',
    {
      schema: {
        tags: ['openai'],
        operationId: 'listModels',
        summary: 'The models POST /v1/audio/speech accepts (OpenAI-compatible)',
        security: [{ apiKey: [] }],
        response: {
          200: z.object({
            object: z.literal('list'),
            data: z.array(
              z.object({
                id: z.string(),
                object: z.literal('model'),
                created: z.number(),
                owned_by: z.string(),
              }),
            ),
          }),
          '4xx': OpenAiErrorSchema,
        },
      },
    },
    async () => ({
      object: 'list' as const,
      data: Object.keys(OPENAI_MODELS).map((id) => ({
        id,
        object: 'model' as const,
        created: 1_700_000_000,
        owned_by: 'parla',
      })),
    }),
  );

  app.post(
    '/audio/speech',
    {
      config: { rateLimit: conversionRateLimit(options.conversionsPerMinute) },
      schema: {
        tags: ['openai'],
        operationId: 'createSpeech',
        summary: 'Text to speech as OpenAI’s API does it: audio in the answer (OpenAI-compatible)',
        security: [{ apiKey: [] }],
        headers: IdempotencyHeadersSchema,
        body: SpeechRequestSchema,
        produces: ['audio/mpeg', 'audio/wav', 'text/event-stream'],
        response: {
          200: AudioBodySchema,
          '4xx': OpenAiErrorSchema,
          500: OpenAiErrorSchema,
          503: OpenAiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const checked = speechSettings(await conversions.voices(), request.body);
      if (!checked.ok) return openAiError(reply, 400, ...checked.error);
      const made = await convertRequest(request, reply, conversions, checked.settings, true);
      if ('refused' in made) {
        const { status, message } = made.refused;
        return openAiError(reply, status, message, 'Idempotency-Key');
      }
      const { conversion } = made;
      if (conversion.status !== 200 || !conversion.file) return refused(reply, conversion);
      reply.header('x-parla-characters', String(conversion.characters ?? 0));
      sendWarnings(reply, checked.warnings);
      if (request.body.stream_format === 'sse') {
        const audio = await conversionAudioBytes(conversions, storage, conversion.file);
        if (!audio) return openAiError(reply, 500, CONVERT_MESSAGES.failed);
        return sendEvents(reply, audio, conversion.characters ?? 0);
      }
      await sendConversionAudio(request, reply, conversions, storage, conversion.file);
      return reply;
    },
  );
};
