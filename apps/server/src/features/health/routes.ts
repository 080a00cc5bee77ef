import type { ProviderStatus } from '@parla/speech';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, isDatabaseReachable } from '../../db/database.js';

const HealthSchema = z.object({ status: z.literal('ok') });
const ReadySchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.boolean(),
  /** Present when REDIS_URL is set. */
  redis: z.boolean().optional(),
  /** Present when S3_BUCKET is set. */
  storage: z.boolean().optional(),
  /**
   * Each remote voice provider configured (Amazon Polly, Azure Speech, an OpenAI-compatible
   * server), as this process's calls found it; a failing provider does not make the server
   * unready (the other voices still work), its voices are marked unavailable.
   */
  providers: z
    .array(
      z.object({
        provider: z.string(),
        name: z.string(),
        available: z.boolean(),
        failures: z.number().int(),
        lastError: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * The natural voices of DEFAULT_VOICES being downloaded and installed (issue 29); the server
   * is ready meanwhile (espeak-ng serves).
   */
  voices: z
    .object({
      installing: z.array(
        z.object({ name: z.string(), bytes: z.number().int(), total: z.number().int().nullable() }),
      ),
    })
    .optional(),
});

export interface HealthRoutesOptions {
  db: Db;
  /** The shared services this installation uses besides the database; each throws when down. */
  services?: { redis?: () => Promise<void>; storage?: () => Promise<void> };
  /** The remote voice providers' records, when any is configured. */
  providers?: () => ProviderStatus[];
  /** The default voices' installs under way (services/voice-installer.ts). */
  voices?: () => { installing: { name: string; bytes: number; total: number | null }[] };
}

/** A service that does not answer in this time is reported down (a probe must be quick). */
const CHECK_TIMEOUT_MS = 3000;

async function answers(check: () => Promise<void>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), late]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { db, services = {}, providers, voices },
) => {
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
        summary: 'The process can serve requests: database, and Redis and storage when configured',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const [database, redis, storage] = await Promise.all([
        isDatabaseReachable(db),
        services.redis && answers(services.redis),
        services.storage && answers(services.storage),
      ]);
      const ready = database && redis !== false && storage !== false;
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'unavailable',
        database,
        ...(redis !== undefined && { redis }),
        ...(storage !== undefined && { storage }),
        ...(providers && providers().length > 0 && { providers: providers() }),
        ...(voices && { voices: voices() }),
      });
    },
  );
};

/** Paths load balancers and monitoring tools probe by habit; `/api` itself is no page either. */
const PROBE_PATHS = [
  '/api',
  '/metrics',
  '/health',
  '/healthz',
  '/ready',
  '/readyz',
  '/livez',
  '/status',
];

/**
 * A probe at a habitual path gets a JSON 404 naming the real ones, never the web app's HTML
 * (which a checker would read as "up"). /.well-known/ holds no page either.
 */
export const probeFallbackRoutes: FastifyPluginAsync = async (app) => {
  const notHere = (url: string) => ({
    message: `Not found: ${url}. The probes are /api/health, /api/ready and /api/metrics.`,
  });
  for (const url of PROBE_PATHS) {
    app.get(url, { schema: { hide: true } }, async (request, reply) =>
      reply.code(404).send(notHere(request.url)),
    );
  }
  app.get('/.well-known/*', { schema: { hide: true } }, async (request, reply) =>
    reply.code(404).send({ message: `Not found: ${request.url}` }),
  );
};
