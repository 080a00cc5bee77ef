import {
  ErrorResponseSchema,
  FileIdParamsSchema,
  MessageResponseSchema,
  SpeechMarkSchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { timingRoutes } from '../../http/timing-routes.js';
import { marksKey } from '../../lib/marks.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import type { FileRepository } from '../../services/files/repository.js';

/** The most speech marks a saved file keeps (a 100,000-character text has fewer). */
const MAX_MARKS = 100_000;

export const SAVED_MARKS_MESSAGES = {
  saved: 'The speech marks are saved.',
  notFound: 'This file does not exist or was deleted.',
  tooLate: (index: number) =>
    `marks[${index}].time: the mark is later than the end of the saved audio.`,
} as const;

/**
 * Speech marks of a saved file (docs/decisions/019-speech-marks.md): the page that saves a
 * conversion uploads its marks (PUT marks/:id); they are stored beside the file's audio and go
 * with it. GET marks/:id and subtitles/:id answer them to their owner only.
 */
export function savedFileTimingRoutes(options: {
  files: FileRepository;
  storage: ObjectStorage;
  preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}): FastifyPluginAsyncZod {
  const security = [{ bearerAuth: [] }];
  return async (app) => {
    app.put(
      '/marks/:id',
      {
        preHandler: options.preHandler,
        bodyLimit: 16 * 1024 * 1024,
        schema: {
          tags: ['file'],
          summary:
            "Save the speech marks of a saved file's audio (JSON, as the convertor gave them)",
          security,
          params: FileIdParamsSchema,
          body: z.array(SpeechMarkSchema).max(MAX_MARKS),
          response: {
            200: MessageResponseSchema,
            400: ErrorResponseSchema,
            404: ErrorResponseSchema,
          },
        },
      },
      async (request, reply) => {
        const file = await options.files.find(request.user.id, request.params.id);
        if (!file) return reply.code(404).send({ message: SAVED_MARKS_MESSAGES.notFound });
        // A second of slack: the encoder's padding.
        const late = request.body.findIndex((mark) => mark.time > (file.length + 1) * 1000);
        if (late >= 0) return reply.code(400).send({ message: SAVED_MARKS_MESSAGES.tooLate(late) });
        await options.storage.put(
          marksKey(file.storage_key),
          new TextEncoder().encode(JSON.stringify(request.body)),
          'application/json',
        );
        return { message: SAVED_MARKS_MESSAGES.saved };
      },
    );
    await app.register(
      timingRoutes({
        storage: options.storage,
        params: FileIdParamsSchema,
        notFound: SAVED_MARKS_MESSAGES.notFound,
        tag: 'file',
        security,
        preHandler: options.preHandler,
        userOf: (request) => request.user.id,
        find: async (id, userId) => {
          const file = userId ? await options.files.find(userId, id) : undefined;
          return (
            file && { audioKey: file.storage_key, duration: file.length, name: `parla-${file.id}` }
          );
        },
      }),
    );
  };
}
