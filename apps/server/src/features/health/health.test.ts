import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../../test/redis.js';
import { startS3 } from '../../../test/s3.js';
import { createTestApp, testConfig } from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';

const { reachable, prefix } = await testRedis('the readiness and metrics tests with Redis');
const METRICS_TOKEN = 'metrics-token-of-this-test';

describe('probes and metrics', () => {
  it('never answers a probe path or an unknown API path with the web app', async () => {
    const webRoot = mkdtempSync(path.join(tmpdir(), 'parla-web-'));
    afterAll(() => rmSync(webRoot, { recursive: true, force: true }));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Parla</title>');
    const app = await createTestApp({ webRoot });
    // The web app answers every other path.
    expect((await app.inject({ method: 'GET', url: '/pricing' })).headers['content-type']).toMatch(
      /^text\/html/,
    );
    for (const url of [
      '/metrics',
      '/healthz',
      '/ready',
      '/api',
      '/api/',
      '/api/nope',
      '/.well-known/x',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json().message, url).toMatch(/^(Not found|No such API route)/);
    }
  });

  it('reports the S3 storage in readiness, and unavailable when it stops answering', async () => {
    const s3 = await startS3();
    const app = await createTestApp({
      config: testConfig({ ...s3.env, JWT_SECRET: 'y'.repeat(40) }),
    });
    const up = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'ready', database: true, storage: true });
    await s3.close();
    const down = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'unavailable', database: true, storage: false });
  }, 60_000);

  it.runIf(reachable)(
    'checks Redis and serves Prometheus metrics behind METRICS_TOKEN',
    async () => {
      const app = await createTestApp({
        config: testConfig({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, METRICS_TOKEN }),
      });
      const ready = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.json()).toEqual({ status: 'ready', database: true, redis: true });

      const settings = voiceSettings({ text: 'Counted by the metrics.' });
      for (let i = 0; i < 2; i += 1) {
        const ok = await app.inject({ method: 'POST', url: '/api/convertor', payload: settings });
        expect(ok.statusCode).toBe(200);
      }
      const bad = await app.inject({
        method: 'POST',
        url: '/api/convertor',
        payload: { ...settings, text: '<speak><prosody rate="fast">Hi</speak>' },
      });
      expect(bad.statusCode).toBe(400);

      const refused = await app.inject({ method: 'GET', url: '/api/metrics' });
      expect(refused.statusCode).toBe(401);
      const wrong = await app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: 'Bearer not-the-token-at-all' },
      });
      expect(wrong.statusCode).toBe(401);

      const scrape = await app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = scrape.body;
      const value = (series: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      const engine = settings.engine;
      expect(value(`parla_conversions_total{engine="${engine}",outcome="success"}`)).toBe(2);
      expect(value(`parla_conversions_total{engine="${engine}",outcome="invalid"}`)).toBe(1);
      expect(value(`parla_conversion_characters_total{engine="${engine}"}`)).toBe(
        2 * settings.text.length,
      );
      // The second, identical conversion came from the speech cache.
      expect(value(`parla_synthesis_cache_hits_total{engine="${engine}"}`)).toBe(1);
      expect(value(`parla_synthesis_duration_seconds_count{engine="${engine}"}`)).toBe(2);
      expect(value(`parla_audio_seconds_total{engine="${engine}"}`)).toBeGreaterThan(1);
      expect(value('parla_queue_wait_seconds_count')).toBe(2);
      expect(value('parla_queue_jobs{state="waiting"}')).toBe(0);
      expect(
        value('parla_http_requests_total{method="POST",route="/api/convertor",status="200"}'),
      ).toBe(2);
      expect(
        value('parla_http_request_duration_seconds_count{method="GET",route="/api/ready"}'),
      ).toBe(1);
      expect(value('parla_process_cpu_seconds_total')).toBeGreaterThan(0);
      expect(value('parla_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    },
    60_000,
  );
});
