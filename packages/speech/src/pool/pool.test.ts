import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, decodeWav } from '../../test/audio.js';
import { request } from '../../test/request.js';
import { toneVoice } from '../../test/tone-voice.js';
import { nativeAvailable } from '../engines/espeak/backends.js';
import type { SpeechEngine } from '../engines/types.js';
import { SpeechError, SsmlError } from '../errors.js';
import { SpeechPool } from './pool.js';

/** Distinct sentences, so that no worker has any of them in its sentence cache. */
const longText = (what: string, length = 20) =>
  Array.from(
    { length },
    (_, i) => `This is sentence number ${i + 1} of a rather long ${what} text.`,
  ).join(' ');
const LONG = longText('shared');
const native = await nativeAvailable();

// Real synthesis of long texts on a shared 2-core machine: allow time.
describe('SpeechPool', { timeout: 60_000 }, () => {
  let pool: SpeechPool;
  let cacheDir: string;

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'parla-cache-'));
    pool = new SpeechPool({ size: 2, config: { espeak: { backend: 'wasm' } }, cacheDir });
  });
  afterAll(async () => {
    await pool.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('synthesises in a worker and answers a repeat from the disk cache', async () => {
    const req = request({ text: 'Cached words.', output_format: 'mp3', sample_rate: 24000 });
    const first = await pool.synthesize(req);
    expect(first.cached).toBe(false);
    expect((await decode('mp3', first.audio)).sampleRate).toBe(24000);
    const second = await pool.synthesize(req);
    expect(second.cached).toBe(true);
    expect(Buffer.from(second.audio).equals(Buffer.from(first.audio))).toBe(true);
    expect(second.marks).toEqual(first.marks);
    // One folder per key prefix, holding the audio and its metadata.
    const folders = await readdir(cacheDir);
    expect(folders.length).toBeGreaterThan(0);
    // Another setting is another key.
    expect((await pool.synthesize({ ...req, volume: -3 })).cached).toBe(false);
  });

  it('answers before the disk cache is written, and writes it before it closes', async () => {
    const own = await mkdtemp(join(tmpdir(), 'parla-cache-'));
    const req = request({ text: 'Written after the answer.', output_format: 'ogg' });
    const first = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      cacheDir: own,
    });
    const made = await first.synthesize(req);
    await first.close();
    const second = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      cacheDir: own,
    });
    try {
      const again = await second.synthesize(req);
      expect(again.cached).toBe(true);
      expect(Buffer.from(again.audio).equals(Buffer.from(made.audio))).toBe(true);
      // Written to a temporary name and renamed: nothing half-written is left.
      const [folder = ''] = await readdir(own);
      expect((await readdir(join(own, folder))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await second.close();
      await rm(own, { recursive: true, force: true });
    }
  });

  it('gives the warnings as values, from a worker and from the disk cache (issue 27)', async () => {
    const req = request({ text: 'Say\n<mstts:silence>this</mstts:silence> once.' });
    const warning = {
      code: 'unsupported_element',
      message: '<mstts:silence> is not supported; it is ignored and its text is read',
      line: 2,
      column: 1,
    };
    const first = await pool.synthesize(req);
    expect(first.cached).toBe(false);
    expect(first.warnings).toEqual([warning]);
    const second = await pool.synthesize(req);
    expect(second.cached).toBe(true);
    expect(second.warnings).toEqual([warning]);
    expect(decodeWav(second.audio).samples.length).toBeGreaterThan(0);
  });

  it('streams the first sentence before the whole text is rendered', async () => {
    const started = performance.now();
    let first = 0;
    const chunks = [];
    for await (const chunk of pool.stream(request({ text: LONG, output_format: 'ogg' }))) {
      if (chunks.length === 0) first = performance.now() - started;
      chunks.push(chunk);
    }
    const total = performance.now() - started;
    // Twenty sentences, the first one's first second sent ahead of its rest.
    expect(chunks.length).toBe(21);
    expect(chunks[0]?.duration).toBe(1);
    // Rendered whole before the first yield, the first chunk would come at about `total`; one
    // sentence of twenty comes far earlier, even on a loaded machine (measured: 0.1–0.3).
    expect(first).toBeLessThan(total / 2);
    const decoded = await decode('ogg', Buffer.concat(chunks.map((c) => c.audio)));
    expect(decoded.samples.length / 16000).toBeCloseTo(
      chunks.reduce((s, c) => s + c.duration, 0),
      1,
    );
    // The stream was cached as a whole file.
    const again = await pool.synthesize(request({ text: LONG, output_format: 'ogg' }));
    expect(again.cached).toBe(true);
  });

  it('keeps the event loop responsive while every worker is busy', async () => {
    let worstLag = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstLag = Math.max(worstLag, now - last - 10);
      last = now;
    }, 10);
    const started = performance.now();
    const texts = [`${LONG} One.`, `${LONG} Two.`, `${LONG} Three.`];
    await Promise.all(texts.map((text) => pool.synthesize(request({ text }))));
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // Relative to the work, not a fixed number of milliseconds: on a loaded two-core machine
    // the main thread is descheduled now and then, but synthesis on it would stall it for
    // most of the run.
    expect(worstLag).toBeLessThan(elapsed / 4);
  });

  it('passes errors back with their positions and keeps the worker', async () => {
    const error = await pool
      .synthesize(request({ text: '<speak><prosody rate="fast">x</speak>' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsmlError);
    expect((error as SsmlError).line).toBe(1);
    const ok = await pool.synthesize(request({ text: 'Still here.' }));
    expect(decodeWav(ok.audio).samples.length).toBeGreaterThan(0);
  });

  it('fails the request of a worker that dies, replaces the worker and carries on', async () => {
    // Failed while the drill waits for the thread to end: caught from the start.
    const doomed = pool.synthesize(request({ text: longText('doomed') })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    expect(await pool.crashBusyWorkerForTesting()).toBe(true);
    expect(await doomed).toMatchObject({ code: 'internal' });
    const after = await Promise.all([
      pool.synthesize(request({ text: 'After the crash.' })),
      pool.synthesize(request({ text: 'Second worker.' })),
    ]);
    expect(after.every((r) => r.duration > 0.5)).toBe(true);
  });

  it('lists voices from a worker', async () => {
    const languages = await pool.listVoices();
    expect(languages.some((l) => l.language_code === 'fr-fr')).toBe(true);
  });

  it('fails queued work on close', async () => {
    const small = new SpeechPool({ size: 1, config: { espeak: { backend: 'wasm' } } });
    const running = small.synthesize(request({ text: LONG }));
    const queued = small.synthesize(request({ text: 'Queued.' })).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await small.close();
    expect(await queued).toEqual(
      new SpeechError('engine_unavailable', 'The speech service is shutting down.'),
    );
    expect((await running).duration).toBeGreaterThan(10);
    await expect(small.synthesize(request())).rejects.toMatchObject({ code: 'engine_unavailable' });
  });

  // Decision 059: a thread terminated while it called a native library through koffi (loading
  // the encoders, say) aborted the whole process now and then (CI, 2026-12-07: "FATAL ERROR:
  // Error::ThrowAsJavaScriptException napi_throw" as a server shut down). A worker now closes
  // its engines and ends its own thread; what its engines made goes with them.
  it.runIf(native)(
    "ends each thread itself on close, after the engines' loading, removing what they made",
    async () => {
      const own = await mkdtemp(join(tmpdir(), 'parla-tmp-'));
      const mirrors = async () =>
        (await readdir(own)).filter((name) => name.startsWith('parla-espeak-'));
      const previous = process.env.TMPDIR;
      // The worker threads take this environment as it is when they start.
      process.env.TMPDIR = own;
      const ending = new SpeechPool({ size: 2, config: { espeak: { backend: 'native' } } });
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      try {
        // The soft effect is a voice variant, installed in a writable mirror of espeak-ng's data.
        const soft = await ending.synthesize(request({ text: 'Softly now.', effect: 'soft' }));
        expect(decodeWav(soft.audio).samples.length).toBeGreaterThan(8000);
        expect(await mirrors()).toHaveLength(1);
        // Closed while the other thread may still be loading its engines: it loads, then ends.
        await ending.close();
        // A terminated thread left its mirror behind; one that ends itself removes it.
        expect(await mirrors()).toEqual([]);
      } finally {
        await ending.close();
        await rm(own, { recursive: true, force: true });
      }
    },
  );

  it('stops a render past its time budget, replaces the worker and fails with a code', async () => {
    const budget = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      timeoutMs: 2000,
    });
    try {
      // Four hundred sentences take far longer than 2 s to render on this build (about 6 s
      // on an idle machine of this kind).
      const error = await budget
        .synthesize(request({ text: longText('over-budget', 400) }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpeechError);
      expect(error).toMatchObject({ code: 'limit_exceeded' });
      expect((error as Error).message).toMatch(/more than the 2 s of rendering/);
      // The replaced worker answers the next request.
      const ok = await budget.synthesize(request({ text: 'Next one.' }));
      expect(ok.duration).toBeGreaterThan(0.3);
    } finally {
      await budget.close();
    }
  });

  it("lists the voices whatever the render budget: a starting worker's list is no rendering", async () => {
    // 50 ms: far less than a worker takes to start and load espeak-ng's catalogue.
    const tight = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      timeoutMs: 50,
    });
    try {
      const languages = await tight.listVoices();
      expect(languages.find((l) => l.language_code === 'en-us')?.voices.length).toBeGreaterThan(0);
    } finally {
      await tight.close();
    }
  });

  it('renders a remote engine on this thread without taking a worker', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const voice = toneVoice('remote:tone', 'Remote tone');
    // A stand-in for a cloud voice: waits on "the network", answers a 440 Hz tone.
    const remote: SpeechEngine = {
      id: 'remote',
      local: false,
      voices: async () => [voice],
      resolve: async (id) => (id === voice.id ? voice : undefined),
      voiceForLanguage: async () => undefined,
      sampleRate: async () => 16000,
      fingerprint: async () => 'remote|1',
      rendersOffThread: async () => true,
      async render() {
        started++;
        await gate;
        const samples = Float32Array.from(
          { length: 8000 },
          (_, i) => Math.sin((2 * Math.PI * 440 * i) / 16000) * 0.5,
        );
        return { samples, sampleRate: 16000, words: [], breaths: false };
      },
      close: async () => {},
    };
    const mixed = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      remoteEngines: [remote],
    });
    try {
      const remoteResult = mixed.synthesize({ ...request(), voice: 'remote:tone', text: 'Hi.' });
      while (started === 0) await new Promise((r) => setTimeout(r, 10));
      // The remote request is waiting on its engine, and the only worker is free for this.
      expect(mixed.busy).toBe(0);
      const local = await mixed.synthesize(request({ text: 'Local while remote waits.' }));
      expect(local.duration).toBeGreaterThan(0.5);
      release();
      const tone = decodeWav((await remoteResult).audio);
      expect(tone.samples.length).toBeGreaterThanOrEqual(7000);
      expect(Math.max(...tone.samples)).toBeGreaterThan(0.4);
    } finally {
      await mixed.close();
    }
  });
});

describe('SpeechPool fair share (issue 28, item 2)', { timeout: 120_000 }, () => {
  it("starts another caller's short request within the first slots behind one caller's 30", async () => {
    const pool = new SpeechPool({ size: 1, config: { espeak: { backend: 'wasm' } } });
    try {
      const finished: string[] = [];
      const flood = { key: 'ip:192.0.2.1', maxRequests: 30 };
      const many = Array.from({ length: 30 }, (_, i) =>
        pool
          .synthesize(request({ text: `Request ${i + 1}.` }), flood)
          .then(() => finished.push(`flood ${i + 1}`)),
      );
      const hello = pool
        .synthesize(request({ text: 'Hello.' }), { key: 'ip:198.51.100.7', maxRequests: 30 })
        .then(() => finished.push('hello'));
      await Promise.all([...many, hello]);
      // Round robin: the flood's first request was running; the other caller's is next.
      expect(finished.indexOf('hello')).toBe(1);
      expect(finished.filter((name) => name !== 'hello')).toEqual(
        Array.from({ length: 30 }, (_, i) => `flood ${i + 1}`),
      );
    } finally {
      await pool.close();
    }
  });

  it("refuses a caller's request past its plan's number at once, and past the queue's seconds", async () => {
    const pool = new SpeechPool({
      size: 1,
      config: { espeak: { backend: 'wasm' } },
      maxQueuedSeconds: 1,
    });
    try {
      const caller = { key: 'user:1', maxRequests: 2 };
      const first = pool.synthesize(request({ text: 'One.' }), caller);
      const second = pool.synthesize(request({ text: 'Two.' }), caller);
      const third = await pool.synthesize(request({ text: 'Three.' }), caller).catch((e) => e);
      expect(third).toBeInstanceOf(SpeechError);
      expect(third).toMatchObject({
        code: 'busy',
        message:
          'You have 2 conversions waiting or being made, as many as your plan makes at once. Please try again when one has finished.',
      });
      expect(third.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      // Another caller is not refused for it.
      const other = pool.synthesize(request({ text: 'Other.' }), { key: 'user:2', maxRequests: 2 });
      await Promise.all([first, second, other]);
      // Done: the caller may ask again.
      expect((await pool.synthesize(request({ text: 'Four.' }), caller)).duration).toBeGreaterThan(
        0,
      );
      // 600 characters are about 1.2 s of work: past the 1 s a worker may have before it.
      const text = 'Words of a long request. '.repeat(24);
      const running = pool.synthesize(request({ text }), { key: 'user:3', maxRequests: 5 });
      const full = await pool
        .synthesize(request({ text: 'Short.' }), { key: 'user:4', maxRequests: 5 })
        .catch((e) => e);
      expect(full).toMatchObject({
        code: 'busy',
        message: 'The speech service is busy right now. Please try again in a few seconds.',
      });
      expect(full.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      await running;
    } finally {
      await pool.close();
    }
  });
});
