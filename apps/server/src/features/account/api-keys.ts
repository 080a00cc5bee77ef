import {
  ApiKeyParamsSchema,
  ApiKeysSchema,
  CreateApiKeyInputSchema,
  CreatedApiKeySchema,
  ErrorResponseSchema,
  MessageResponseSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import {
  API_KEY_MESSAGES,
  createApiKeyRepository,
} from '../../services/accounts/api-key-repository.js';

const bearer = [{ bearerAuth: [] }];

/**
 * GET, POST /account/api_keys and DELETE /account/api_keys/{id} (issue 16): a signed-in user's
 * API keys (services/accounts/api-key-repository.ts). Keys cannot manage keys: these routes
 * need a login token.
 */
export const apiKeyRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const keys = createApiKeyRepository(db);
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
      const rows = await keys.list(request.user.id);
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
      const created = await keys.create(request.user.id, request.body.name);
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
      if (!(await keys.remove(request.user.id, request.params.id))) {
        return reply.code(404).send({ message: API_KEY_MESSAGES.notFound });
      }
      return { message: API_KEY_MESSAGES.revoked };
    },
  );
};
