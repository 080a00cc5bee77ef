import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { VoiceSettings } from '@parla/contract';
import { SpeechError, SpeechPool, SsmlError } from '@parla/speech';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../test/redis.js';
import { voiceSettings } from '../../test/voice-settings.js';
import { RedisClients } from './redis.js';
import { createQueueClient, createSpeechService, startSpeechWorker } from './speech.js';
import { createLocalStorage } from './storage/local.js';
import type { ObjectStorage } from './storage/storage.js';

const { reachable, prefix } = await testRedis('the queue tests');
const REDIS_URL = TEST_REDIS_URL;
const cacheDir = mkdtempSync(path.join(tmpdir(), 'parla-queue-cache-'));
const storageDir = mkdtempSync(path.join(tmpdir(), 'parla-queue-storage-'));
/** The storage workers and servers share (a bucket in production). */
const storage = createLocalStorage(storageDir);
afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
  rmSync(storageDir, { recursive: true, force: true });
});

const request = (text: string, change: Partial<VoiceSettings> = {}) =>
  voiceSettings({ text, ...change });

async function storedBytes(from: ObjectStorage, key: string): Promise<Buffer> {
  const stream = await from.read(key);
  if (!stream) throw new Error(`nothing stored under ${key}`);
  return buffer(stream);
}

describe.runIf(reachable)('speech through the Redis queue (BullMQ)', () => {
  it('renders a request on a worker that shares only Redis with the client', async () => {
    const client = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix });
    const worker = startSpeechWorker({
      redis: new RedisClients(REDIS_URL),
      pool: new SpeechPool({ size: 1, cacheDir }),
      prefix,
      storage,
    });
    try {
      // The audio goes to the shared storage under the caller's key; only its description
      // crosses Redis.
      const result = await client.render(request('Hello from the queue.'), 'audio/hello.wav');
      expect(result).not.toHaveProperty('audio');
      const wav = await storedBytes(storage, 'audio/hello.wav');
      expect(result.size).toBe(wav.length);
      expect(result.queuedSeconds).toBeGreaterThanOrEqual(0);
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
        .render(request('<speak>\n  <prosody rate="fast">Hi</speak>'), 'audio/bad.wav')
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SsmlError);
      expect(failure).toMatchObject({ code: 'bad_input', line: 2 });
    } finally {
      await client.close();
      await worker.close();
    }
  });

  it('fails a request that no worker takes in time, with a clear message', async () => {
    const client = createQueueClient({
      redis: new RedisClients(REDIS_URL),
      prefix: `${prefix}-idle`,
      timeoutMs: 500,
    });
    try {
      const failure = await client
        .render(request('Nobody listens.'), 'audio/nobody.wav')
        .catch((e: unknown) => e);
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
      redis: new RedisClients(REDIS_URL),
      queuePrefix: `${prefix}-server`,
      storage,
    });
    try {
      const result = await service.render(
        request('Queued and served.', { output_format: 'mp3', sample_rate: 24000 }),
        'audio/served.mp3',
      );
      expect(result.mimeType).toBe('audio/mpeg');
      expect((await storedBytes(storage, 'audio/served.mp3')).length).toBe(result.size);
      expect(result.sampleRate).toBe(24000);
      expect(result.duration).toBeGreaterThan(0.5);
      // The console's overview: this process is the one worker, with its one thread.
      expect(await service.workers()).toEqual({ processes: 1, threads: 1 });
    } finally {
      await service.close();
    }
  });

  it('a worker shutting down hands the request in hand back to the queue; another renders it', async () => {
    const handPrefix = `${prefix}-hand-back`;
    const client = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix: handPrefix });
    const leavingPool = new SpeechPool({ size: 1, cacheDir });
    const leaving = startSpeechWorker({
      redis: new RedisClients(REDIS_URL),
      pool: leavingPool,
      prefix: handPrefix,
      storage,
    });
    let staying: ReturnType<typeof startSpeechWorker> | undefined;
    // Distinct sentences (a repeated one comes from the sentence cache).
    const sentences = (what: string) =>
      Array.from(
        { length: 200 },
        (_, i) => `Sentence ${i + 1} keeps the ${what} worker busy for a while longer.`,
      ).join(' ');
    // The leaving worker's one thread is busy with another text first, so the queued request
    // is still in hand (waiting in its pool, not yet rendered) when the worker leaves, however
    // fast the machine renders (a thread renders on two cores since decision 058).
    const speak = (text: string) =>
      leavingPool.synthesize({ voice: 'standard:en-us', text, format: 'wav', sampleRate: 16000 });
    await speak('Warm.');
    const busy = speak(sentences('leaving'));
    busy.catch(() => undefined);
    try {
      const text = sentences('first');
      const rendered = client.render(request(text), 'audio/handed-back.wav');
      while ((await client.queueCounts()).active === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const closed = leaving.close();
      await leaving.handBack();
      await closed;
      expect(await client.queueCounts()).toEqual({ waiting: 1, active: 0 });

      staying = startSpeechWorker({
        redis: new RedisClients(REDIS_URL),
        pool: new SpeechPool({ size: 1, cacheDir: path.join(cacheDir, 'other') }),
        prefix: handPrefix,
        storage,
      });
      const result = await rendered;
      expect(result.duration).toBeGreaterThan(20);
      const wav = await storedBytes(storage, 'audio/handed-back.wav');
      expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
      expect((wav.length - 44) / 32000).toBeCloseTo(result.duration, 1);
      // The text in the thread was finished before its pool closed.
      expect((await busy).duration).toBeGreaterThan(20);
    } finally {
      await client.close();
      await leaving.close();
      await staying?.close();
    }
  }, 60_000);

  it("says a streamed text's warnings through Redis before its first bytes (issue 27)", async () => {
    const warnPrefix = `${prefix}-warn`;
    const client = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix: warnPrefix });
    const worker = startSpeechWorker({
      redis: new RedisClients(REDIS_URL),
      pool: new SpeechPool({ size: 1, cacheDir: path.join(cacheDir, 'warn') }),
      prefix: warnPrefix,
      storage,
    });
    try {
      const rendering = client.renderLive(
        request('<speak><amazon:effect name="drc">Hello there.</amazon:effect></speak>'),
        'audio/warned.wav',
        'warned-one',
      );
      const warnings = await rendering.first;
      expect(warnings).toEqual([
        expect.objectContaining({ code: 'ignored_markup', line: 1, column: 8 }),
      ]);
      const chunks = await client.live.read('warned-one');
      if (!chunks) throw new Error('the rendering is not live');
      const parts: Uint8Array[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      // The warning is no audio: what was read is what was stored.
      const stored = await storedBytes(storage, 'audio/warned.wav');
      expect(Buffer.concat(parts).subarray(44)).toEqual(stored.subarray(44));
      expect((await rendering.done).warnings).toEqual(warnings);
    } finally {
      await client.close();
      await worker.close();
    }
  }, 60_000);

  it('streams a rendering of a worker elsewhere through Redis, chunk by chunk, and stores the same bytes', async () => {
    const livePrefix = `${prefix}-live`;
    const client = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix: livePrefix });
    const worker = startSpeechWorker({
      redis: new RedisClients(REDIS_URL),
      pool: new SpeechPool({ size: 1, cacheDir: path.join(cacheDir, 'live') }),
      prefix: livePrefix,
      storage,
    });
    try {
      const text = 'Each sentence of this text is a chunk of the stream. '.repeat(12);
      const rendering = client.renderLive(
        request(text, { output_format: 'mp3', sample_rate: 24000 }),
        'audio/live.mp3',
        'live-one',
      );
      await rendering.first;
      const chunks = await client.live.read('live-one');
      if (!chunks) throw new Error('the rendering is not live');
      const parts: Uint8Array[] = [];
      for await (const chunk of chunks) parts.push(chunk);
      expect(parts.length).toBeGreaterThan(1);
      const result = await rendering.done;
      const stored = await storedBytes(storage, 'audio/live.mp3');
      expect(Buffer.compare(stored, Buffer.concat(parts))).toBe(0);
      expect(result.size).toBe(stored.length);
      expect(result.duration).toBeGreaterThan(10);
      // The speech marks went beside the chunks (the readers above saw audio only): once it
      // ended, every one, as stored.
      const marks = await storedBytes(storage, 'audio/live.mp3.marks.json');
      expect(await client.live.marks('live-one')).toEqual(JSON.parse(marks.toString()));
      expect(await client.live.marks('never-started')).toBeUndefined();

      // A request's own error comes back before any audio, with its code and position.
      const bad = client.renderLive(request('<speak><p>open</speak>'), 'audio/bad.mp3', 'live-bad');
      bad.done.catch(() => undefined);
      const error = await bad.first.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SpeechError);
      expect((error as SpeechError).code).toBe('bad_input');
      expect(await client.live.read('never-started')).toBeUndefined();

      // Abandoned by its listeners (on whichever server they were), it stops at its next chunk.
      const long = 'This rendering is abandoned long before its end by everyone. '.repeat(150);
      const left = client.renderLive(request(long), 'audio/left.wav', 'live-left');
      await left.first;
      await client.live.attach('live-left');
      expect(await client.live.readers('live-left')).toBe(1);
      expect(await client.live.detach('live-left')).toBe(0);
      await client.live.abandon('live-left');
      await expect(left.done).rejects.toMatchObject({ code: 'internal' });
      expect(await client.live.state('live-left')).toBe('failed');
      expect(await client.live.marks('live-left')).toBeUndefined();
      expect(await storage.stat('audio/left.wav')).toBeUndefined();
    } finally {
      await client.close();
      await worker.close();
    }
  }, 60_000);

  it("gives each caller's first conversion a place before anyone's second, across servers (decision 042)", async () => {
    const fairPrefix = `${prefix}-fair`;
    // Two servers' producing sides and one worker with one thread, sharing only Redis.
    const first = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix: fairPrefix });
    const second = createQueueClient({ redis: new RedisClients(REDIS_URL), prefix: fairPrefix });
    const worker = startSpeechWorker({
      redis: new RedisClients(REDIS_URL),
      pool: new SpeechPool({ size: 1, cacheDir: path.join(cacheDir, 'fair') }),
      prefix: fairPrefix,
      storage,
    });
    const flooder = { key: 'ip:198.51.100.7', maxRequests: 3 };
    const order: string[] = [];
    const finish = (name: string, rendering: Promise<unknown>) =>
      rendering.then(() => order.push(name));
    try {
      const text = (n: number) =>
        `Conversion ${n} of the caller who sends many at once. `.repeat(6);
      const burst = [1, 2, 3].map((n) =>
        finish(
          `A${n}`,
          first.render(request(text(n)), `audio/fair-a${n}.wav`, { caller: flooder }),
        ),
      );
      // Sent through the other server while A's burst waits: it goes before A2 and A3.
      while ((await first.queueCounts()).waiting < 2) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const hello = finish(
        'B1',
        second.render(request('Hello.'), 'audio/fair-b1.wav', {
          caller: { key: 'ip:203.0.113.9', maxRequests: 3 },
        }),
      );
      // A fourth of A's, on either server, is past its cap: refused at once, nothing queued.
      const refused = await second
        .render(request('One too many.'), 'audio/fair-a4.wav', { caller: flooder })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SpeechError);
      expect(refused).toMatchObject({ code: 'busy' });
      expect((refused as SpeechError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(await storage.stat('audio/fair-a4.wav')).toBeUndefined();
      await Promise.all([...burst, hello]);
      expect(order).toEqual(['A1', 'B1', 'A2', 'A3']);
      // Finished, A's conversions no longer count against it.
      await first.render(request('Again.'), 'audio/fair-a5.wav', { caller: flooder });
    } finally {
      await first.close();
      await second.close();
      await worker.close();
    }
  }, 60_000);
});
