import {
  AdminHealthSchema,
  AdminOverviewQuerySchema,
  AdminOverviewSchema,
  ErrorResponseSchema,
  overviewPeriod,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import type { Metrics } from '../../lib/metrics.js';
import type { SpeechService } from '../../lib/speech.js';
import { createOverviewRepository } from '../../services/admin/overview-repository.js';

export interface OverviewRoutesOptions {
  db: Db;
  speech: Pick<SpeechService, 'providers' | 'queueCounts' | 'workers'>;
  metrics: Pick<Metrics, 'engines'>;
  /** True when the speech queue runs through Redis. */
  redis: boolean;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

/**
 * The console's overview (issue 31 section 1, decision 053), registered inside the admin
 * plugin, under its guard: figures per day from the database, and the speech service's health
 * from this server's metrics and the queue.
 */
export const overviewRoutes: FastifyPluginAsyncZod<OverviewRoutesOptions> = async (
  app,
  options,
) => {
  const overview = createOverviewRepository(options.db);

  app.get(
    '/overview',
    {
      schema: {
        tags,
        summary:
          'Sign-ups, active users, conversions, characters, audio minutes, revenue and errors per day (UTC) from `from` to `to` (default: the last 30 days, at most 366), with the top voices and languages',
        security: bearer,
        querystring: AdminOverviewQuerySchema,
        response: { 200: AdminOverviewSchema, ...errors },
      },
    },
    async (request) => {
      const { from, to } = overviewPeriod(request.query);
      return overview.figures(from, to);
    },
  );

  app.get(
    '/overview/health',
    {
      schema: {
        tags,
        summary:
          "Each remote provider's state, each engine's conversions, failures and mean time since this server started, the speech queue's depth and the workers",
        security: bearer,
        response: { 200: AdminHealthSchema, ...errors },
      },
    },
    async () => {
      const { speech } = options;
      const [queue, workers, engines] = await Promise.all([
        speech.queueCounts(),
        speech.workers(),
        options.metrics.engines(),
      ]);
      return {
        providers: speech.providers().map((status) => ({
          provider: status.provider,
          name: status.name,
          available: status.available,
          failures: status.failures,
          last_error: status.lastError ?? null,
        })),
        engines,
        queue: { redis: options.redis, ...queue },
        workers,
      };
    },
  );
};
