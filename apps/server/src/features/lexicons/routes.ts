import {
  ErrorResponseSchema,
  fieldErrors,
  LEXICON_LIMITS,
  LEXICON_MESSAGES,
  LexiconDeletedSchema,
  LexiconGetQuerySchema,
  LexiconInputSchema,
  LexiconListSchema,
  LexiconNameParamsSchema,
  LexiconPutQuerySchema,
  LexiconRenameInputSchema,
  LexiconSchema,
  PLS_MEDIA_TYPE,
  TextBodySchema,
} from '@parla/contract';
import { PlsError, parsePls, SpeechError, toPls } from '@parla/speech';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { dispositionOf } from '../../http/content-disposition.js';
import type {
  LexiconDraft,
  LexiconRepository,
} from '../../services/lexicons/lexicon-repository.js';

export interface LexiconRoutesOptions {
  lexicons: LexiconRepository;
}

const bearer: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKey: [] }];

/** XML media types a PLS file may come as; the registered one first. */
const PLS_TYPES = [PLS_MEDIA_TYPE, 'application/xml', 'text/xml'];

/** Bytes of a PUT: a PLS file of 40,000 characters in UTF-8 (at most 4 bytes each), or JSON. */
const BODY_LIMIT = LEXICON_LIMITS.fileCharacters * 4 + 1024;

/**
 * The validation of these routes' parts: a PUT's body is JSON or a PLS file, read by the route
 * (its schema is there for the OpenAPI document); every other part is checked as everywhere.
 */
const bodyReadByRoute: typeof validatorCompiler = (route) =>
  route.httpPart === 'body' && route.method === 'PUT'
    ? (value) => ({ value })
    : validatorCompiler(route);

/**
 * Pronunciation lexicons (issue 32, docs/api.md "Pronunciation lexicons"): the signed-in
 * user's (a token or an API key), as JSON or as W3C PLS 1.0 files. The repository checks the
 * plan's limits; nothing is stored from a body that is refused.
 */
export const lexiconRoutes: FastifyPluginAsyncZod<LexiconRoutesOptions> = async (app, options) => {
  const { lexicons } = options;
  // A PLS body is read as text here, and parsed by the route (with line:column on mistakes).
  app.addContentTypeParser(
    PLS_TYPES,
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_r, body, done) => done(null, body),
  );
  app.setValidatorCompiler(bodyReadByRoute);
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/',
    {
      schema: {
        tags: ['lexicons'],
        summary:
          "The caller's pronunciation lexicons, and how many lexicons and entries the plan allows",
        security: bearer,
        response: { 200: LexiconListSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request) => ({
      lexicons: await lexicons.list(request.user),
      limits: lexicons.limitsOf(request.user),
    }),
  );

  app.get(
    '/:name',
    {
      schema: {
        tags: ['lexicons'],
        summary: `A lexicon with its entries; as a PLS file with Accept: ${PLS_MEDIA_TYPE} or ?format=pls`,
        security: bearer,
        params: LexiconNameParamsSchema,
        querystring: LexiconGetQuerySchema,
        produces: ['application/json', PLS_MEDIA_TYPE],
        response: {
          200: z.union([
            LexiconSchema,
            TextBodySchema(`The lexicon as a PLS 1.0 file (${PLS_MEDIA_TYPE})`),
          ]),
          '4xx': ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const lexicon = await lexicons.find(request.user.id, request.params.name);
      if (!lexicon)
        return reply.code(404).send({ message: LEXICON_MESSAGES.notFound(request.params.name) });
      const wantsPls =
        request.query.format === 'pls' ||
        (request.query.format === undefined &&
          reply.request.headers.accept?.includes(PLS_MEDIA_TYPE) === true);
      if (!wantsPls) return lexicon;
      return reply
        .type(`${PLS_MEDIA_TYPE}; charset=utf-8`)
        .header('content-disposition', dispositionOf('attachment', lexicon.name, 'pls', 'lexicon'))
        .serializer((payload: unknown) => String(payload))
        .send(toPls(lexicon));
    },
  );

  app.put(
    '/:name',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['lexicons'],
        summary: `Create or replace a lexicon: JSON, or a PLS file (Content-Type: ${PLS_MEDIA_TYPE}; ?default=true|false)`,
        consumes: ['application/json', PLS_MEDIA_TYPE],
        security: bearer,
        params: LexiconNameParamsSchema,
        querystring: LexiconPutQuerySchema,
        body: LexiconInputSchema,
        response: { 200: LexiconSchema, 201: LexiconSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      let draft: LexiconDraft;
      const body: unknown = request.body;
      if (typeof body === 'string') {
        try {
          const read = parsePls(body);
          draft = {
            language: read.language,
            entries: read.entries,
            default: request.query.default,
          };
        } catch (error) {
          if (error instanceof PlsError || error instanceof SpeechError) {
            return reply.code(400).send({ message: error.message });
          }
          throw error;
        }
      } else if (body !== undefined && body !== null) {
        const parsed = LexiconInputSchema.safeParse(body);
        if (!parsed.success) {
          const errors = fieldErrors(parsed.error);
          return reply
            .code(400)
            .send({ message: errors[0]?.message ?? LEXICON_MESSAGES.mediaType, errors });
        }
        draft = parsed.data;
      } else {
        return reply.code(415).send({ message: LEXICON_MESSAGES.mediaType });
      }
      const saved = await lexicons.save(request.user, request.params.name, draft);
      if (!saved.ok) return reply.code(saved.status).send({ message: saved.message });
      return reply.code(saved.created ? 201 : 200).send(saved.lexicon);
    },
  );

  // An action on the lexicon (as the console's POST /users/{id}/characters): PUT replaces a
  // lexicon whole under the name in its path, so a new name is not a PUT.
  app.post(
    '/:name/rename',
    {
      schema: {
        tags: ['lexicons'],
        summary:
          'Rename a lexicon, keeping its entries and whether it applies by default (409: the new name is taken)',
        security: bearer,
        params: LexiconNameParamsSchema,
        body: LexiconRenameInputSchema,
        response: { 200: LexiconSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const renamed = await lexicons.rename(
        request.user.id,
        request.params.name,
        request.body.name,
      );
      if (!renamed.ok) return reply.code(renamed.status).send({ message: renamed.message });
      return renamed.lexicon;
    },
  );

  app.delete(
    '/:name',
    {
      schema: {
        tags: ['lexicons'],
        summary: 'Delete a lexicon',
        security: bearer,
        params: LexiconNameParamsSchema,
        response: { 200: LexiconDeletedSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!(await lexicons.remove(request.user.id, name))) {
        return reply.code(404).send({ message: LEXICON_MESSAGES.notFound(name) });
      }
      return { message: LEXICON_MESSAGES.deleted(name) };
    },
  );
};
