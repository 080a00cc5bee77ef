import { isClientError, type SpeechErrorCode } from '@parla/speech';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of one app (GET /api/metrics, docs/operations.md "What to watch").
 * Each app has its own registry, so several apps in one process (tests) do not collide.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'parla_' });
  const registers = [registry];
  const engine = ['engine'] as const;

  const metrics = {
    registry,
    httpRequests: new Counter({
      name: 'parla_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'parla_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern and method',
      labelNames: ['method', 'route'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    conversions: new Counter({
      name: 'parla_conversions_total',
      help: 'Conversions by engine and outcome (success, refused: plan limits, invalid: the text or settings, failed: ours)',
      labelNames: ['engine', 'outcome'] as const,
      registers,
    }),
    characters: new Counter({
      name: 'parla_conversion_characters_total',
      help: 'Characters converted successfully, by engine',
      labelNames: engine,
      registers,
    }),
    synthesisSeconds: new Histogram({
      name: 'parla_synthesis_duration_seconds',
      help: 'Time from a conversion request to its stored audio (queue wait included), by engine',
      labelNames: engine,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160],
      registers,
    }),
    audioSeconds: new Counter({
      name: 'parla_audio_seconds_total',
      help: 'Seconds of audio produced, by engine',
      labelNames: engine,
      registers,
    }),
    queueWait: new Histogram({
      name: 'parla_queue_wait_seconds',
      help: 'Time a conversion waited in the Redis queue before a worker took it',
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    cacheHits: new Counter({
      name: 'parla_synthesis_cache_hits_total',
      help: 'Conversions answered from the speech cache, by engine',
      labelNames: engine,
      registers,
    }),
    providerErrors: new Counter({
      name: 'parla_provider_errors_total',
      help: 'Failures of the speech service (engine, worker, queue, storage), by engine and code',
      labelNames: ['engine', 'code'] as const,
      registers,
    }),

    /** Queue depth, read from Redis when scraped. */
    watchQueue(counts: () => Promise<{ waiting: number; active: number }>) {
      new Gauge({
        name: 'parla_queue_jobs',
        help: 'Speech requests in the queue, by state (waiting for a worker, being rendered)',
        labelNames: ['state'] as const,
        registers,
        async collect() {
          const current = await counts();
          this.set({ state: 'waiting' }, current.waiting);
          this.set({ state: 'active' }, current.active);
        },
      });
    },

    /**
     * Each engine's conversions since this process started, those that failed for the
     * service's reasons, and their mean time to stored audio (the console's overview).
     */
    async engines() {
      const summary = new Map<
        string,
        { engine: string; conversions: number; failed: number; seconds: number; timed: number }
      >();
      const of = (name: string) => {
        const entry = summary.get(name) ?? {
          engine: name,
          conversions: 0,
          failed: 0,
          seconds: 0,
          timed: 0,
        };
        summary.set(name, entry);
        return entry;
      };
      for (const { labels, value } of (await metrics.conversions.get()).values) {
        const entry = of(String(labels.engine));
        if (labels.outcome === 'success') entry.conversions += value;
        if (labels.outcome === 'failed') entry.failed += value;
      }
      for (const { labels, value, metricName } of (await metrics.synthesisSeconds.get()).values) {
        if (metricName?.endsWith('_sum')) of(String(labels.engine)).seconds += value;
        if (metricName?.endsWith('_count')) of(String(labels.engine)).timed += value;
      }
      return [...summary.values()]
        .sort((a, b) => a.engine.localeCompare(b.engine))
        .map(({ engine: name, conversions, failed, seconds, timed }) => ({
          engine: name,
          conversions,
          failed,
          mean_seconds: timed > 0 ? seconds / timed : null,
        }));
    },

    /** A conversion that failed: the request's fault (invalid) or the service's (failed). */
    conversionFailed(engineName: string, code: SpeechErrorCode) {
      if (isClientError(code)) {
        metrics.conversions.inc({ engine: engineName, outcome: 'invalid' });
        return;
      }
      metrics.conversions.inc({ engine: engineName, outcome: 'failed' });
      metrics.providerErrors.inc({ engine: engineName, code });
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
