import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SpeechError, SpeechPool, SsmlError, type SynthesisRequest } from '@parla/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { redisReachable, removeRedisKeys, TEST_REDIS_URL } from '../test/redis.js';
import { voiceSettings } from '../test/voice-settings.js';
import { createQueueClient, createSpeechService, startSpeechWorker } from './speech.js';

const REDIS_URL = TEST_REDIS_URL;
const reachable = await redisReachable('the queue tests');

/** Every test run gets its own key prefix, removed at the end. */
const prefix = `parla-test-${randomUUID()}`;
const cacheDir = mkdtempSync(path.join(tmpdir(), 'parla-queue-cache-'));
afterAll(async () => {
  rmSync(cacheDir, { recursive: true, force: true });
  if (reachable) await removeRedisKeys(prefix);
});

const request = (text: string, change: Partial<SynthesisRequest> = {}) =>
  voiceSettings({ text, ...change });

describe.runIf(reachable)('speech through the Redis queue (BullMQ)', () => {
  it('renders a request on a worker that shares only Redis with the client', async () => {
    const client = createQueueClient({ redisUrl: REDIS_URL, prefix });
    const worker = startSpeechWorker({
      redisUrl: REDIS_URL,
      pool: new SpeechPool({ size: 1, cacheDir }),
      prefix,
    });
    try {
      const result = await client.synthesize(request('Hello from the queue.'));
      const wav = Buffer.from(result.audio);
      expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
      expect(wav.readUInt32LE(24)).toBe(16000);
      // 16-bit mono: the data after the 44-byte header is the duration the result states.
      expect((wav.length - 44) / 32000).toBeCloseTo(result.duration, 1);
      expect(result.duration).toBeGreaterThan(0.5);

      const voices = await client.listVoices();
      expect(voices.find((l) => l.language_code === 'en-us')?.voices.length).toBeGreaterThan(0);

      // A request's own error comes back with its code and SSML position, not as a failure
      // of the queue.
      const failure = await client
        .synthesize(request('<speak>\n  <prosody rate="fast">Hi</speak>'))
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SsmlError);
      expect(failure).toMatchObject({ code: 'ssml', line: 2 });
    } finally {
      await client.close();
      await worker.close();
    }
  });

  it('fails a request that no worker takes in time, with a clear message', async () => {
    const client = createQueueClient({
      redisUrl: REDIS_URL,
      prefix: `${prefix}-idle`,
      timeoutMs: 500,
    });
    try {
      const failure = await client.synthesize(request('Nobody listens.')).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SpeechError);
      expect((failure as SpeechError).message).toMatch(/^The speech service failed/);
    } finally {
      await client.close();
    }
  });

  it('a server with REDIS_URL consumes its own queue, so it works with no other worker', async () => {
    const service = createSpeechService({
      cacheDir,
      workers: 1,
      redisUrl: REDIS_URL,
      queuePrefix: `${prefix}-server`,
    });
    try {
      const result = await service.synthesize(
        request('Queued and served.', { output_format: 'mp3', sample_rate: 24000 }),
      );
      expect(result.mimeType).toBe('audio/mpeg');
      expect(result.sampleRate).toBe(24000);
      expect(result.duration).toBeGreaterThan(0.5);
    } finally {
      await service.close();
    }
  });
});
