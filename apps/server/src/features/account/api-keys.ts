import { randomBytes, randomUUID } from 'node:crypto';
import {
  ApiKeyParamsSchema,
  ApiKeysSchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  ErrorResponseSchema,
  MAX_API_KEYS,
  MessageResponseSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { API_KEY_PREFIX, hashApiKey } from '../../plugins/auth.js';

export const API_KEY_MESSAGES = {
  tooMany: `You have ${MAX_API_KEYS} API keys; revoke one before creating another.`,
  notFound: 'You have no API key with this id.',
  revoked: 'The API key is revoked: requests signed with it are refused from now on.',
} as const;

/** Characters of a key shown to recognise it: the prefix and six of its own. */
const SHOWN = API_KEY_PREFIX.length + 6;

const bearer = [{ bearerAuth: [] }];

/**
 * GET, POST /account/api_keys and DELETE /account/api_keys/{id} (issue 16): a signed-in user's
 * API keys. A key is 32 random bytes (base64url) after `parla_`, shown once; the database
 * holds its SHA-256 (the key has too much entropy to guess, so no slow hash is needed) and its
 * first characters. Keys cannot manage keys: these routes need a login token.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook('onRequest', app.requireUser);
  app.addHook('onRequest', app.refuseApiKeys);

  app.get(
    '/',
    {
      schema: {
        tags: ['account'],
        summary: 'Your API keys: name, prefix, when created and last used (never the key)',
        operationId: 'listApiKeys',
        security: bearer,
        response: { 200: ApiKeysSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
        .where('user_id', '=', request.user.id)
        .orderBy('created_at', 'asc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        prefix: row.prefix,
        created_date: row.created_at,
        last_used_date: row.last_used_at,
      }));
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['account'],
        summary: 'Create an API key; the answer is the only time the key is shown',
        operationId: 'createApiKey',
        security: bearer,
        body: CreateApiKeyInputSchema,
        response: { 201: CreatedApiKeySchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const created = await db.transaction().execute(async (trx) => {
        const { count } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', request.user.id)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_API_KEYS) return undefined;
        const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
        const row = {
          id: randomUUID(),
          user_id: request.user.id,
          name: request.body.name,
          prefix: key.slice(0, SHOWN),
          key_hash: hashApiKey(key),
          created_at: new Date().toISOString(),
          last_used_at: null,
        };
        await trx.insertInto('api_keys').values(row).execute();
        return { key, row };
      });
      if (!created) {
        return reply.code(400).send({
          message: API_KEY_MESSAGES.tooMany,
          errors: [{ path: 'name', message: API_KEY_MESSAGES.tooMany }],
        });
      }
      const { key, row } = created;
      return reply.code(201).send({
        id: row.id,
        name: row.name,
        key,
        prefix: row.prefix,
        created_date: row.created_at,
      });
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke an API key: requests signed with it are refused at once',
        operationId: 'revokeApiKey',
        security: bearer,
        params: ApiKeyParamsSchema,
        response: { 200: MessageResponseSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const removed = await db
        .deleteFrom('api_keys')
        .where('id', '=', request.params.id)
        .where('user_id', '=', request.user.id)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) {
        return reply.code(404).send({ message: API_KEY_MESSAGES.notFound });
      }
      return { message: API_KEY_MESSAGES.revoked };
    },
  );
};
