import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, isDatabaseReachable } from '../../db/database.js';

const HealthSchema = z.object({ status: z.literal('ok') });
const ReadySchema = z.object({ status: z.enum(['ready', 'unavailable']), database: z.boolean() });

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'The process is up', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'The process can serve requests (database reachable)',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const database = await isDatabaseReachable(db);
      return reply
        .code(database ? 200 : 503)
        .send({ status: database ? 'ready' : 'unavailable', database });
    },
  );
};
