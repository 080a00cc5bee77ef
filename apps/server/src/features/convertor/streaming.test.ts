import type { AddressInfo } from 'node:net';
import { countCharacters, type SpeechMark, SpeechMarksSchema } from '@parla/contract';
import { parseBuffer } from 'music-metadata';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../../test/redis.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';

const app = await createTestApp({ conversionsPerMinute: 1000, streamAbandonedAfterMs: 300 });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

// A server with a short render budget, so that a long text fails after its first bytes went
// out (the way a worker that dies mid-way does): the stream must end in an error.
const RENDER_BUDGET_MS = 6000;
// On espeak-ng's WebAssembly build, whose speed does not depend on the machine's libraries:
// libespeak-ng renders the texts below inside the budget on an idle machine.
const strict = await createTestApp({
  config: testConfig({ PARLA_SPEECH_BACKEND: 'wasm' }),
  conversionsPerMinute: 1000,
  renderTimeoutMs: RENDER_BUDGET_MS,
  streamAbandonedAfterMs: 300,
});
await strict.listen({ port: 0, host: '127.0.0.1' });
const strictBase = `http://127.0.0.1:${(strict.server.address() as AddressInfo).port}`;
// A server of an installation with Redis: its renderings stream through a Redis stream.
const redis = await testRedis('streamed conversions through Redis');
const withRedis = redis.reachable
  ? await createTestApp({
      conversionsPerMinute: 1000,
      config: testConfig({ REDIS_URL: TEST_REDIS_URL }),
      redisPrefix: redis.prefix,
    })
  : undefined;
await withRedis?.listen({ port: 0, host: '127.0.0.1' });
// Before the apps close (hooks run last first): the client's kept-alive sockets go, so that
// closing does not wait for them to time out.
afterAll(() => {
  app.server.closeAllConnections();
  strict.server.closeAllConnections();
  withRedis?.server.closeAllConnections();
});

/**
 * Far more than the budget allows (20,000 characters render in about 10 s on the WebAssembly
 * build), in distinct
 * sentences: none comes from the sentence cache.
 */
const tooLong = (what: string) =>
  Array.from(
    { length: 300 },
    (_, i) => `Sentence ${i + 1} of the ${what} text is heard while the rest renders.`,
  )
    .join(' ')
    .slice(0, 20_000)
    .trim();

/** Requests that do not keep their connection: the servers close without waiting on them. */
const get = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { connection: 'close' } });

const SENTENCE = 'Streaming lets the listener hear the first sentence while the rest is rendered. ';

async function convertStreamed(body: object, authorization?: string, on = base) {
  const started = performance.now();
  const response = await fetch(`${on}/api/convertor?stream=true`, {
    method: 'POST',
    // Not kept alive: the server closes without waiting on idle connections.
    headers: {
      'content-type': 'application/json',
      connection: 'close',
      ...(authorization && { authorization }),
    },
    body: JSON.stringify(body),
  });
  return { response, answeredMs: performance.now() - started };
}

async function charactersLeft(userId: string, of = app): Promise<number> {
  const row = await of.db
    .selectFrom('users')
    .select('count_characters')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count_characters);
}

describe(`streamed conversions (${TEST_DATABASE_KIND})`, () => {
  it('answers at once, streams the audio as it renders, and stores the same bytes', async () => {
    const { user, authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const text = SENTENCE.repeat(20).trim();
    const { response, answeredMs } = await convertStreamed(
      voiceSettings({ text, engine: 'standard', output_format: 'mp3', sample_rate: 24000 }),
      authorization,
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ success: true, streaming: true, duration: null });
    expect(answer.path).toMatch(/^\/api\/convertor\/audio\/[\w-]{22}\.mp3$/);
    console.info(`streamed answer after ${answeredMs.toFixed(0)} ms`);

    const audio = await get(`${base}${answer.path}`);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(audio.headers.get('content-length')).toBeNull();
    const reader = audio.body?.getReader();
    if (!reader) throw new Error('no body');
    const parts: Uint8Array[] = [];
    let firstAt = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (parts.length === 0) firstAt = performance.now();
      parts.push(value);
    }
    const endedAt = performance.now();
    const streamed = Buffer.concat(parts);
    // The first bytes came well before the last: it was streamed, not sent whole.
    expect(parts.length).toBeGreaterThan(1);
    expect(endedAt - firstAt).toBeGreaterThan(100);

    // Characters are charged once, as for a whole file.
    expect(await charactersLeft(user.id)).toBe(
      Number(user.count_characters) - countCharacters(text),
    );

    // Once rendered, the same address serves the stored file: the bytes that were streamed.
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: String(answer.path) })).statusCode)
      .toBe(200);
    const stored = await app.inject({ method: 'GET', url: String(answer.path) });
    expect(stored.headers['content-length']).toBe(String(streamed.length));
    expect(Buffer.compare(stored.rawPayload, streamed)).toBe(0);
    const decoded = await parseBuffer(streamed, { mimeType: 'audio/mpeg' }, { duration: true });
    // 20 sentences of about 13 words: tens of seconds of speech.
    expect(decoded.format.duration).toBeGreaterThan(20);
    expect(decoded.format.sampleRate).toBe(24000);

    // Its marks and subtitles are there once it has ended.
    const marks = await app.inject({ method: 'GET', url: String(answer.marks_path) });
    expect(marks.statusCode).toBe(200);
    const words = (marks.json() as { type: string; value: string }[]).filter(
      (m) => m.type === 'word',
    );
    expect(words[0]?.value).toBe('Streaming');
  });

  it('streams WAV with a streaming header and stores it with its real sizes', async () => {
    const { response } = await convertStreamed(
      voiceSettings({
        text: SENTENCE.repeat(3),
        engine: 'standard',
        output_format: 'wav',
        sample_rate: 16000,
      }),
    );
    const answer = (await response.json()) as { path: string };
    const streamed = Buffer.from(await (await get(`${base}${answer.path}`)).arrayBuffer());
    expect(streamed.toString('latin1', 0, 4)).toBe('RIFF');
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: answer.path })).statusCode)
      .toBe(200);
    const stored = (await app.inject({ method: 'GET', url: answer.path })).rawPayload;
    // The same samples; only the header's two sizes differ (unknown while streaming).
    expect(stored.length).toBe(streamed.length);
    expect(Buffer.compare(stored.subarray(44), streamed.subarray(44))).toBe(0);
    expect(stored.readUInt32LE(40)).toBe(stored.length - 44);
    const decoded = await parseBuffer(stored, { mimeType: 'audio/wav' }, { duration: true });
    expect(decoded.format.duration).toBeGreaterThan(3);
  });

  it('refuses bad input before streaming, with its message and without charging', async () => {
    const { user, authorization } = await signedInUser(app);
    const { response } = await convertStreamed(
      voiceSettings({ text: '<speak><prosody rate="fast">unclosed</speak>' }),
      authorization,
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { success: boolean; message: string };
    expect(answer.success).toBe(false);
    expect(answer.message).toMatch(/\d+:\d+/);
    expect(await charactersLeft(user.id)).toBe(Number(user.count_characters));

    // Refused before any renderer sees it (the engine is not the voice's): at once, too.
    const started = performance.now();
    const mismatch = await convertStreamed(
      voiceSettings({ text: 'hello', engine: 'neural', voice_id: 'standard:en-us' }),
      authorization,
    );
    expect(mismatch.response.status).toBe(400);
    expect(((await mismatch.response.json()) as { message: string }).message).toContain(
      'standard:en-us',
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await charactersLeft(user.id)).toBe(Number(user.count_characters));

    const bad = await fetch(`${base}/api/convertor?stream=maybe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(voiceSettings({ text: 'hello' })),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('stream');
  });

  it('ends a stream that fails after its first bytes with an error; past its budget, it keeps the charge', async () => {
    const { user, authorization } = await signedInUser(strict, { plan: 'BUSINESS' });
    const text = tooLong('failing');
    const { response } = await convertStreamed(
      voiceSettings({
        text,
        engine: 'standard',
        output_format: 'mp3',
        sample_rate: 24000,
      }),
      authorization,
      strictBase,
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { path: string };
    // Kept alive, as a browser's: the cut shows as a broken chunked transfer.
    const audio = await fetch(`${strictBase}${answer.path}`);
    expect(audio.status).toBe(200);
    const reader = audio.body?.getReader();
    if (!reader) throw new Error('no body');
    let received = 0;
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          received += value.length;
        }
      } catch (error) {
        return error;
      }
    })();
    expect(received).toBeGreaterThan(0);
    expect(failure).toBeInstanceOf(Error);
    // The rendering ran to its budget: not a free retry (docs/decisions/034-cost-queues-and-crashes.md).
    await expect
      .poll(() => charactersLeft(user.id, strict))
      .toBe(Number(user.count_characters) - countCharacters(text));
    // Nothing is kept of it, and its address says so.
    const gone = await strict.inject({ method: 'GET', url: answer.path });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: CONVERT_MESSAGES.failed });
  });

  it('stops a rendering its listener left, and keeps its charge', async () => {
    const { user, authorization } = await signedInUser(strict, { plan: 'BUSINESS' });
    // Left to run, it would overrun the render budget (which keeps the charge too).
    const text = tooLong('abandoned');
    const { response } = await convertStreamed(
      voiceSettings({
        text,
        engine: 'standard',
        output_format: 'mp3',
        sample_rate: 24000,
      }),
      authorization,
      strictBase,
    );
    const answer = (await response.json()) as { path: string };
    const leaving = new AbortController();
    const audio = await get(`${strictBase}${answer.path}`, { signal: leaving.signal });
    await audio.body?.getReader().read();
    leaving.abort();
    // Past the budget: stopped as abandoned, it kept its charge, as a whole file whose page
    // was closed does.
    await new Promise((resolve) => setTimeout(resolve, RENDER_BUDGET_MS + 1000));
    expect(await charactersLeft(user.id, strict)).toBe(
      Number(user.count_characters) - countCharacters(text),
    );
    const gone = await strict.inject({ method: 'GET', url: answer.path });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: CONVERT_MESSAGES.failed });
  });
});

const INSTALLATIONS = [
  { name: 'in memory', server: app },
  ...(withRedis ? [{ name: 'through Redis', server: withRedis }] : []),
];

describe.each(INSTALLATIONS)(
  `the speech marks of a streamed conversion, $name (${TEST_DATABASE_KIND})`,
  ({ server }) => {
    const on = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const marksOf = async (path: string) => {
      const answer = await server.inject({ method: 'GET', url: path });
      expect(answer.statusCode).toBe(200);
      return {
        complete: answer.headers['x-parla-marks-complete'],
        cache: answer.headers['cache-control'],
        marks: SpeechMarksSchema.parse(answer.json()),
      };
    };
    const words = (marks: SpeechMark[]) =>
      marks.filter((mark) => mark.type === 'word').map((mark) => mark.value);

    it('answers the marks of the words heard so far while it renders, then the whole set', async () => {
      const { authorization } = await signedInUser(server, { plan: 'BUSINESS' });
      // Distinct sentences (none from the sentence cache): seconds of rendering.
      const text = Array.from(
        { length: 120 },
        (_, i) => `Sentence ${i + 1} is highlighted while the rest of it renders.`,
      ).join(' ');
      const { response } = await convertStreamed(
        voiceSettings({ text, engine: 'standard', output_format: 'mp3', sample_rate: 24000 }),
        authorization,
        on,
      );
      const answer = (await response.json()) as { path: string; marks_path: string };
      const subtitles = answer.marks_path.replace('/marks/', '/subtitles/');

      // Answered once the first audio is out: the marks of the words it makes heard are there.
      const first = await marksOf(answer.marks_path);
      expect(first.complete).toBe('false');
      expect(first.cache).toBe('no-store');
      expect(words(first.marks).slice(0, 3)).toEqual(['Sentence', '1', 'is']);
      expect(words(first.marks).length).toBeLessThan(text.split(' ').length);
      for (const mark of first.marks.filter((m) => m.type === 'word'))
        expect(text.slice(mark.start, mark.end)).toBe(mark.value);
      // Subtitles are made of the whole set: not before.
      expect((await server.inject({ method: 'GET', url: subtitles })).statusCode).toBe(404);

      // The audio's readers get audio only: what they read is the file stored.
      const audio = await get(`${on}${answer.path}`);
      expect(audio.headers.get('content-length')).toBeNull();
      const streamed = Buffer.from(await audio.arrayBuffer());

      // Each answer starts with the one before; once stored, the whole set, cached.
      let before = first.marks;
      await expect
        .poll(
          async () => {
            const now = await marksOf(answer.marks_path);
            expect(now.marks.slice(0, before.length)).toEqual(before);
            before = now.marks;
            return now.complete;
          },
          { timeout: 30_000 },
        )
        .toBe('true');
      const whole = await marksOf(answer.marks_path);
      expect(whole.cache).toBe('private, max-age=3600');
      expect(words(whole.marks)).toEqual(text.replace(/\./g, '').split(' '));
      const stored = await server.inject({ method: 'GET', url: answer.path });
      expect(Buffer.compare(stored.rawPayload, streamed)).toBe(0);
      const decoded = await parseBuffer(streamed, { mimeType: 'audio/mpeg' }, { duration: true });
      const last = whole.marks.at(-1)?.time ?? Number.POSITIVE_INFINITY;
      expect(last).toBeLessThan((decoded.format.duration ?? 0) * 1000);
      expect((await server.inject({ method: 'GET', url: subtitles })).statusCode).toBe(200);
      // The poll above may take its 30 s on a loaded machine: the test has more.
    }, 60_000);

    it('answers 404 for the marks of a conversion that failed or never was', async () => {
      const unknown = await server.inject({
        method: 'GET',
        url: '/api/convertor/marks/AAAAAAAAAAAAAAAAAAAAAA',
      });
      expect(unknown.statusCode).toBe(404);
    });
  },
);
