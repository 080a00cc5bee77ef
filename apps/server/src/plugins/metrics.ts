import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../lib/metrics.js';

export interface MetricsPluginOptions {
  metrics: Metrics;
  /** METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  token: string | undefined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Counts and times every request by its route pattern, and serves GET /api/metrics. */
export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics, token }: MetricsPluginOptions) => {
    app.addHook('onResponse', async (request, reply) => {
      // The pattern (/api/file/:id), never the raw URL: one series per route, not per id.
      const route = request.routeOptions.url ?? 'unmatched';
      metrics.httpRequests.inc({ method: request.method, route, status: reply.statusCode });
      metrics.httpDuration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });

    app.get(
      '/api/metrics',
      {
        // Its bearer token is METRICS_TOKEN, not a user's (plugins/auth.ts).
        config: { ownBearer: true },
        schema: {
          tags: ['health'],
          summary: 'Prometheus metrics (METRICS_TOKEN as a bearer token when set)',
        },
      },
      async (request, reply) => {
        if (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`)) {
          return reply
            .code(401)
            .header('www-authenticate', 'Bearer realm="metrics"')
            .send({ message: 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>.' });
        }
        const body = await metrics.registry.metrics();
        return reply
          .type(metrics.registry.contentType)
          .header('cache-control', 'no-store')
          .send(body);
      },
    );
  },
);
