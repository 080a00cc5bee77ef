import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SpeechPool } from '@parla/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningUrl, startServer } from '../test/processes.js';
import { TEST_REDIS_URL, testRedis } from '../test/redis.js';
import { voiceSettings } from '../test/voice-settings.js';
import { RedisClients } from './lib/redis.js';
import { createQueueClient, startSpeechWorker } from './lib/speech.js';
import { createLocalStorage } from './lib/storage/local.js';

const dataRoot = mkdtempSync(path.join(tmpdir(), 'parla-process-'));
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));
const redis = await testRedis('the shutdown hand-back test');

describe('the server process', () => {
  it('starts on a bare DATA_DIR, serves, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = path.join(dataRoot, 'bare');
    const server = startServer({ DATA_DIR: dataDir });
    const url = await listeningUrl(server, 60_000);
    const health = await fetch(`${url}/api/ready`);
    expect(await health.json()).toEqual({ status: 'ready', database: true });
    expect(existsSync(path.join(dataDir, 'parla.sqlite'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);

    server.child.kill('SIGTERM');
    // With its last output, should it end otherwise (once in CI, 2026-12-07, it ended by a
    // signal: a worker thread terminated mid-call into koffi, decision 059).
    expect(await server.exited, server.output.text.slice(-3000)).toBe(0);
    expect(server.output.text).toContain('shutting down');
  }, 90_000);

  it('logs one readable line per event with LOG_FORMAT=pretty', async () => {
    const server = startServer({ DATA_DIR: path.join(dataRoot, 'pretty'), LOG_FORMAT: 'pretty' });
    await listeningUrl(server, 60_000);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output.text).toMatch(/^\[[\d:.]+\] INFO \(\d+\): Server listening at /m);
    expect(server.output.text).not.toContain('{"level"');
  }, 90_000);

  it('refuses to start on a bad variable and names it, without a stack trace', async () => {
    const server = startServer({ DATA_DIR: path.join(dataRoot, 'bad'), PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output.text).toContain('Invalid configuration');
    expect(server.output.text).toContain('PORT: must be a whole number');
    expect(server.output.text).not.toMatch(/\n\s+at /);
  }, 90_000);

  it.runIf(redis.reachable)(
    'past SHUTDOWN_GRACE_SECONDS, hands the request it is rendering back to the queue',
    async () => {
      const dataDir = path.join(dataRoot, 'grace');
      const server = startServer({
        DATA_DIR: dataDir,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_PREFIX: redis.prefix,
        SHUTDOWN_GRACE_SECONDS: '1',
        // The WebAssembly build, whose speed does not depend on the machine's libraries: the
        // request below takes it several seconds (libespeak-ng may finish it within the grace).
        PARLA_SPEECH_BACKEND: 'wasm',
      });
      await listeningUrl(server, 60_000);
      // Another server's request, which only this server's worker can take for now.
      const client = createQueueClient({
        redis: new RedisClients(TEST_REDIS_URL),
        prefix: redis.prefix,
      });
      const storage = createLocalStorage(path.join(dataDir, 'files'));
      let other: ReturnType<typeof startSpeechWorker> | undefined;
      try {
        // Long enough to outlive a second of grace (about 13,000 characters), in distinct
        // sentences: none comes from the sentence cache.
        const text = Array.from(
          { length: 200 },
          (_, i) => `Sentence ${i + 1} of a long request that outlives the grace of the shutdown.`,
        ).join(' ');
        const rendered = client.render(voiceSettings({ text }), 'audio/long.wav');
        while ((await client.queueCounts()).active === 0) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        server.child.kill('SIGTERM');
        // Its output says why when it ends otherwise (a signal's end reads as null).
        expect(await server.exited, server.output.text.slice(-4000)).toBe(1);
        expect(server.output.text).toContain('shutdown grace is over');
        expect(await client.queueCounts()).toEqual({ waiting: 1, active: 0 });

        other = startSpeechWorker({
          redis: new RedisClients(TEST_REDIS_URL),
          prefix: redis.prefix,
          storage,
          pool: new SpeechPool({ size: 1, cacheDir: path.join(dataDir, 'other-cache') }),
        });
        const result = await rendered;
        expect(result.duration).toBeGreaterThan(20);
        expect((await storage.stat('audio/long.wav'))?.size).toBe(result.size);
      } finally {
        await client.close();
        await other?.close();
      }
    },
    120_000,
  );
});
