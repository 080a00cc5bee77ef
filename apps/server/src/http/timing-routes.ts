import {
  ErrorResponseSchema,
  MARKS_COMPLETE_HEADER,
  type SpeechMark,
  SpeechMarksSchema,
  SubtitlesQuerySchema,
  TextBodySchema,
} from '@parla/contract';
import { subtitles } from '@parla/speech';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { readMarks } from '../lib/marks.js';
import type { ObjectStorage } from '../lib/storage/storage.js';
import { dispositionOf } from './content-disposition.js';

/** Where a stored rendering is, once its owner is checked; undefined: not found. */
export type FindRendering = (
  id: string,
  userId: string | undefined,
) => Promise<{ audioKey: string; duration: number; name: string } | undefined>;

export interface TimingRoutesOptions {
  find: FindRendering;
  /**
   * The marks so far of a rendering still streaming, which `find` does not know yet (the
   * convertor's): answered as such, the whole set coming once it is stored.
   */
  live?: (id: string) => Promise<SpeechMark[] | undefined>;
  storage: ObjectStorage;
  /** The caller's user id, or undefined for a visitor. */
  userOf: (request: FastifyRequest) => Promise<string | undefined> | string | undefined;
  /** The `:id` parameter's schema. */
  params: z.core.$ZodObject<{ id: z.core.$ZodString }>;
  /** Answered with 404 when there is nothing. */
  notFound: string;
  /** OpenAPI tag, and security for routes behind authentication. */
  tag: string;
  security?: Array<Record<string, string[]>>;
  preHandler?: RouteShorthandOptions['preHandler'];
}

/**
 * GET `marks/:id` (JSON speech marks) and `subtitles/:id` (WebVTT, `?format=srt` for SRT) for
 * the renderings `find` answers; registered under the convertor and the saved files.
 */
export function timingRoutes(options: TimingRoutesOptions): FastifyPluginAsyncZod {
  return async (app) => {
    const common = {
      ...(options.preHandler !== undefined && { preHandler: options.preHandler }),
    };
    const schemaOf = (summary: string) => ({
      tags: [options.tag],
      summary,
      params: options.params,
      ...(options.security && { security: options.security }),
    });
    app.get(
      '/marks/:id',
      {
        ...common,
        schema: {
          ...schemaOf(
            "Speech marks in Polly's shape: when each word, sentence and <mark> is heard, with its offsets in the text as typed",
          ),
          description: `Every mark, in time order. \`${MARKS_COMPLETE_HEADER}: true\` says the set is whole; while a streamed conversion renders, the answer is the marks of the words heard so far with \`${MARKS_COMPLETE_HEADER}: false\` (not cached): ask again for the rest.`,
          response: { 200: SpeechMarksSchema, 404: ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const found = await options.find(request.params.id, await options.userOf(request));
        const marks = found && (await readMarks(options.storage, found.audioKey));
        if (marks) {
          reply
            .header(MARKS_COMPLETE_HEADER, 'true')
            .header('cache-control', 'private, max-age=3600');
          return marks;
        }
        const soFar = !found && (await options.live?.(request.params.id));
        if (!soFar) return reply.code(404).send({ message: options.notFound });
        reply.header(MARKS_COMPLETE_HEADER, 'false').header('cache-control', 'no-store');
        return soFar;
      },
    );
    app.get(
      '/subtitles/:id',
      {
        ...common,
        schema: {
          ...schemaOf(
            'Subtitles of the audio, one cue a sentence: WebVTT, or SRT with ?format=srt',
          ),
          querystring: SubtitlesQuerySchema,
          produces: ['text/vtt', 'application/x-subrip'],
          response: { 200: TextBodySchema('WebVTT or SRT subtitles'), 404: ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const found = await options.find(request.params.id, await options.userOf(request));
        const marks = found && (await readMarks(options.storage, found.audioKey));
        if (!found || !marks) return reply.code(404).send({ message: options.notFound });
        const { format } = request.query;
        const raw = reply as unknown as FastifyReply;
        return raw
          .header(
            'content-type',
            format === 'srt' ? 'application/x-subrip; charset=utf-8' : 'text/vtt; charset=utf-8',
          )
          .header('cache-control', 'private, max-age=3600')
          .header('content-disposition', dispositionOf('inline', found.name, format, 'subtitles'))
          .send(subtitles(marks, found.duration, format));
      },
    );
  };
}
