import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** Fastify's own 4xx errors, answered with a sentence a person can act on. */
const CLIENT_ERROR_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but JSON was announced.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This content type is not accepted here.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
};

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
 * The one error handler (CONVENTIONS §10): schema failures are 400 with the field messages,
 * other client errors keep their status with a clear message, and anything unexpected is logged
 * with the request id and answered with a generic 500 that reveals nothing.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: issue.message ?? 'Invalid value.',
      }));
      return reply.code(400).send({ message: errors[0]?.message ?? 'Invalid request.', errors });
    }
    if (isFastifyError(error) && error.validation) {
      // A schema written as plain JSON schema (e.g. by a plugin): its messages are generic.
      return reply.code(400).send({ message: `Invalid request: ${error.message}` });
    }
    const status = statusOf(error);
    if (status < 500) return reply.code(status).send({ message: messageOf(error) });
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
});
