import { type ErrorResponse, ErrorResponseSchema } from '@parla/contract';
import type { FastifyError, FastifyInstance, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { openAiErrorBody } from '../http/openai-error.js';
import { HashingBusyError } from '../lib/password.js';
import { isRedisUnavailable } from '../lib/redis.js';

/** Fastify's own 4xx errors, answered with a sentence a person can act on. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but JSON was announced.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not accepted here.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  FST_ERR_CTP_INVALID_CONTENT_TYPE: 'The Content-Type header is not valid.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'This request must be sent as multipart/form-data.',
};

/**
 * Every API route may answer any 4xx (a plugin's 400, 401, 403, 404, 413, 415 or 429) and a
 * 500, all in the one error shape; a route that declares its own 4xx shape keeps it.
 * Declaring them makes the OpenAPI document say so, and serializes the errors of the
 * handler below with a schema they match (an undeclared mismatch used to become a 500).
 */
function declareErrorResponses(schema: FastifySchema): void {
  const response = (schema.response ?? {}) as Record<string, unknown>;
  response['4xx'] ??= ErrorResponseSchema;
  response['5xx'] ??= ErrorResponseSchema;
  schema.response = response;
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error;
}

/** Plugins (rate limit, sensible) throw errors or plain objects that carry a statusCode. */
function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

function messageOf(error: unknown): string {
  const code = isFastifyError(error) ? error.code : '';
  const message = (error as { message?: unknown } | null)?.message;
  return CLIENT_ERROR_MESSAGES[code] ?? (typeof message === 'string' ? message : 'Bad request.');
}

/**
 * The status and body a client error is answered with: schema failures are 400 with every
 * field's message; other client errors (a plugin's, Fastify's) keep their status with a clear
 * message. Undefined for anything else: that is our bug.
 */
export function clientError(error: unknown): { status: number; body: ErrorResponse } | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((issue) => ({
      path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: issue.message ?? 'Invalid value.',
    }));
    return { status: 400, body: { message: errors[0]?.message ?? 'Invalid request.', errors } };
  }
  if (isFastifyError(error) && error.validation) {
    // A schema written as plain JSON schema (e.g. by a plugin): its messages are generic.
    return { status: 400, body: { message: `Invalid request: ${error.message}` } };
  }
  const status = statusOf(error);
  return status < 500 ? { status, body: { message: messageOf(error) } } : undefined;
}

type ErrorAnswer = NonNullable<ReturnType<typeof clientError>>;

/**
 * Route families that answer errors in a shape of their own: the convertor as SPEC §7's
 * `{success: false, message}` (so the page shows one kind of alert), OpenAI's routes as OpenAI
 * does. Chosen by the route's path; every other route answers `{message, errors?}`. Server
 * errors take the same shape: a 500 or 503 in another shape than the route declares failed to
 * serialize (FST_ERR_FAILED_ERROR_SERIALIZATION, issue 28 item 8).
 */
const ERROR_SHAPES: Array<{ prefix: string; body: (answer: ErrorAnswer) => unknown }> = [
  {
    prefix: '/api/convertor',
    body: ({ body }) => ({ ...body, success: false, path: null, duration: null }),
  },
  {
    prefix: '/v1/',
    body: ({ status, body }) =>
      openAiErrorBody(status, body.message, body.errors?.[0]?.path || null),
  },
];

const SERVER_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
export const UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a few seconds.';
/** Seconds a client is told to wait while Redis is unavailable (it reconnects in about that). */
const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The answer to an error that is not the client's: 503 with Retry-After while a service the
 * request needs is away (password hashing full, Redis down or hung), else a generic 500.
 */
function serverError(error: unknown): { answer: ErrorAnswer; retryAfter?: number } {
  if (error instanceof HashingBusyError) {
    return {
      answer: { status: 503, body: { message: error.message } },
      retryAfter: error.retryAfterSeconds,
    };
  }
  if (isRedisUnavailable(error)) {
    return {
      answer: { status: 503, body: { message: UNAVAILABLE_MESSAGE } },
      retryAfter: UNAVAILABLE_RETRY_SECONDS,
    };
  }
  return { answer: { status: 500, body: { message: SERVER_ERROR_MESSAGE } } };
}

/**
 * The one error handler (CONVENTIONS §10): schema failures are 400 with the field messages,
 * other client errors keep their status with a clear message, a service that is away is a 503
 * with Retry-After, and anything unexpected is logged with the request id and answered with a
 * generic 500 that reveals nothing; every answer in the route's error shape.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs')) {
      route.schema ??= {};
      declareErrorResponses(route.schema);
    }
  });
  app.setErrorHandler((error, request, reply) => {
    const route = request.routeOptions.url ?? request.url;
    const shape = ERROR_SHAPES.find(({ prefix }) => route.startsWith(prefix));
    const send = (answer: ErrorAnswer) =>
      reply.code(answer.status).send(shape ? shape.body(answer) : answer.body);
    const answer = clientError(error);
    if (answer) return send(answer);
    const server = serverError(error);
    if (server.retryAfter === undefined) {
      request.log.error({ err: error }, 'request failed');
    } else {
      request.log.warn({ err: error }, 'service unavailable');
      reply.header('retry-after', String(server.retryAfter));
    }
    return send(server.answer);
  });
});
