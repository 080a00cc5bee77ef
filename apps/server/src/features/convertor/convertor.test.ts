import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { VoiceSettings } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';

const config = testConfig();
const app = await createTestApp({ config, conversionsPerMinute: 1000 });
const audioDir = path.join(config.dataDir, 'files', 'audio');

const settings = (text: string, change: Partial<VoiceSettings> = {}) =>
  voiceSettings({ text, ...change });

const convert = (payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/convertor', payload, headers });

describe(`POST /api/convertor (${TEST_DATABASE_KIND})`, () => {
  it('lists languages with voices, engines, effects and capabilities', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/convertor/voices' });
    expect(response.statusCode).toBe(200);
    const languages = response.json() as Array<{
      language_code: string;
      voices: Array<{ id: string; engine: string }>;
    }>;
    expect(languages.length).toBeGreaterThan(50);
    const english = languages.find((l) => l.language_code === 'en-us');
    expect(english?.voices).toContainEqual(
      expect.objectContaining({ id: 'standard:en-us', engine: 'standard' }),
    );
  });

  it('filters the voices by language (BCP-47) and engine, and names a bad parameter', async () => {
    const get = (query: string) =>
      app.inject({ method: 'GET', url: `/api/convertor/voices${query}` });
    const chinese = await get('?language=zh-CN');
    expect(chinese.statusCode).toBe(200);
    const languages = chinese.json() as Array<{
      language_code: string;
      voices: { name: string }[];
    }>;
    expect(languages.map((l) => l.language_code)).toEqual(['cmn']);
    expect(languages[0]?.voices[0]?.name).toBe('Chinese (Mandarin) – Male 1');
    const standard = (await get('?language=en&engine=standard')).json() as Array<{
      language_code: string;
    }>;
    expect(standard.map((l) => l.language_code)).toEqual(['en-us']);
    // Constructed languages are hidden unless the operator turns them on.
    const all = (await get('')).json() as Array<{ language_name: string }>;
    expect(all.map((l) => l.language_name)).not.toContain('Klingon');

    const badEngine = await get('?engine=robot');
    expect(badEngine.statusCode).toBe(400);
    expect(badEngine.json().message).toBe('engine must be one of neural, standard.');
    const badLanguage = await get('?language=%3Cscript%3E');
    expect(badLanguage.statusCode).toBe(400);
    expect(badLanguage.json().message).toMatch(/^language must be a BCP-47 language code/);
  });

  it('serves the catalogue gzip-compressed, and its counts', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    const { gunzipSync } = await import('node:zlib');
    const languages = JSON.parse(gunzipSync(response.rawPayload).toString()) as Array<{
      voices: unknown[];
    }>;
    const summary = await app.inject({ method: 'GET', url: '/api/convertor/voices/summary' });
    expect(summary.json()).toEqual({
      languages: languages.length,
      voices: languages.reduce((sum, l) => sum + l.voices.length, 0),
    });
  });

  it('renders in a worker: the event loop is never blocked for long by a conversion', async () => {
    const long = 'Speech synthesis runs in a worker thread, never on the event loop. '.repeat(12);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const response = await convert(settings(long, { output_format: 'mp3', sample_rate: 24000 }));
    const elapsed = performance.now() - started;
    delay.disable();
    expect(response.json()).toMatchObject({ success: true });
    // Synthesis and encoding on the main thread would stall it for most of the conversion.
    expect(delay.max / 1e6).toBeLessThan(elapsed / 4);
  });

  it('converts, and serves the audio with its type, length and Range requests', async () => {
    const response = await convert(settings('Hello from Parla.'));
    expect(response.statusCode).toBe(200);
    const result = response.json() as {
      success: boolean;
      path: string;
      duration: number;
      message: string;
    };
    expect(result).toMatchObject({ success: true, message: CONVERT_MESSAGES.converted });
    expect(result.path).toMatch(/^\/api\/convertor\/audio\/[\w-]{22}\.wav$/);
    expect(result.duration).toBeGreaterThan(0.5);
    expect(result.duration).toBeLessThan(5);

    const audio = await app.inject({ method: 'GET', url: result.path });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    expect(audio.headers['accept-ranges']).toBe('bytes');
    const bytes = audio.rawPayload;
    expect(Number(audio.headers['content-length'])).toBe(bytes.length);
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    // 16-bit mono at 16 kHz after a 44-byte header: the size matches the reported duration.
    expect((bytes.length - 44) / 2 / 16000).toBeCloseTo(result.duration, 1);

    const range = await app.inject({
      method: 'GET',
      url: result.path,
      headers: { range: 'bytes=0-99' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${bytes.length}`);
    expect(range.rawPayload.equals(bytes.subarray(0, 100))).toBe(true);

    const outside = await app.inject({
      method: 'GET',
      url: result.path,
      headers: { range: `bytes=${bytes.length}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('answers an unknown or guessed audio address with 404', async () => {
    for (const url of [
      '/api/convertor/audio/AAAAAAAAAAAAAAAAAAAAAA.wav',
      '/api/convertor/audio/../../secrets.json',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it.each([
    [
      'malformed SSML, with line and column',
      settings('<speak>\n  <prosody rate="slow">Hello</speak>'),
      /^2:\d+: /,
    ],
    ['an unknown voice', settings('Hello', { voice_id: 'standard:xx-nowhere' }), /Unknown voice/],
    [
      'an illegal format and rate pair',
      settings('Hello', { output_format: 'wav', sample_rate: 48000 }),
      /16000/,
    ],
    ['empty text', settings('   '), /^Text is required\.$/],
  ])(
    'refuses %s with success false and a clear message, spending nothing',
    async (_label, payload, message) => {
      const { user, authorization } = await signedInUser(app);
      const response = await convert(payload, { authorization });
      expect(response.statusCode).toBe(400);
      const body = response.json() as { success: boolean; message: string; path: null };
      expect(body.success).toBe(false);
      expect(body.message).toMatch(message);
      expect(body.path).toBeNull();
      const after = await app.db
        .selectFrom('users')
        .select('count_characters')
        .where('id', '=', user.id)
        .executeTakeFirst();
      expect(after?.count_characters).toBe(user.count_characters);
    },
  );

  it("spends a signed-in user's characters and refuses a text over the plan's per-conversion limit", async () => {
    const { user, authorization } = await signedInUser(app);
    const text = 'Counting characters.';
    expect((await convert(settings(text), { authorization })).statusCode).toBe(200);
    const after = await app.db
      .selectFrom('users')
      .select('count_characters')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(after?.count_characters).toBe(user.count_characters - text.length);

    const long = 'a'.repeat(user.count_characters_per_convert + 1);
    const response = await convert(settings(long), { authorization });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      CONVERT_MESSAGES.tooLong(long.length, user.count_characters_per_convert),
    );
  });

  it('gives exactly as many conversions as the allowance covers under concurrency', async () => {
    // BUSINESS may have 12 conversions rendering at once (CONVERSIONS_AT_ONCE): the 10 the
    // allowance covers all fit, so the answers are about the allowance, not the queue's cap.
    const { user, authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const text = 'Ten of these fit.';
    await app.db
      .updateTable('users')
      .set({ count_characters: 10 * text.length })
      .where('id', '=', user.id)
      .execute();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => convert(settings(text), { authorization })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    expect(responses.find((r) => r.statusCode === 402)?.json().message).toBe(
      CONVERT_MESSAGES.noCharactersLeft(0),
    );
    const after = await app.db
      .selectFrom('users')
      .select('count_characters')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(after?.count_characters).toBe(0);
  });

  it('tracks anonymous visitors by cookie, and bounds an address whatever its cookies', async () => {
    const limited = await createTestApp({
      config: testConfig(),
      conversionsPerMinute: 1000,
      visitorLimits: { perVisitor: 500, perIp: 1000 },
    });
    const text = 'a'.repeat(400);
    // An address of its own, so that other test files on the same database do not count.
    const ip = `10.${process.pid % 250}.${Date.now() % 250}.1`;
    const post = (from: string, cookie?: string) =>
      limited.inject({
        method: 'POST',
        url: '/api/convertor',
        payload: settings(text),
        remoteAddress: from,
        headers: cookie ? { cookie } : {},
      });
    const first = await post(ip);
    expect(first.statusCode).toBe(200);
    const cookie = first.cookies.find((c) => c.name === 'parla_visitor');
    expect(cookie?.httpOnly).toBe(true);
    const usage = await limited.db
      .selectFrom('visitor_usage')
      .selectAll()
      .where('visitor_key', 'in', [`ip:${ip}`, `visitor:${cookie?.value.split('.')[0]}`])
      .execute();
    expect(usage.map((u) => [u.visitor_key.split(':')[0], u.characters_used]).sort()).toEqual([
      ['ip', 400],
      ['visitor', 400],
    ]);

    // The same visitor has 100 characters left: refused, and nothing is charged.
    const again = await post(ip, `parla_visitor=${cookie?.value}`);
    expect(again.statusCode).toBe(402);
    expect(again.json().message).toBe(CONVERT_MESSAGES.noCharactersLeft(100));

    // Clearing the cookie gives a new visitor, but the address has room for 600 more only.
    expect((await post(ip)).statusCode).toBe(200);
    const third = await post(ip);
    expect(third.statusCode).toBe(402);
    expect(third.json().message).toBe(CONVERT_MESSAGES.noCharactersLeft(200));
    // Another address is not affected.
    expect((await post(`${ip}0`)).statusCode).toBe(200);

    // A forged cookie is not another visitor's allowance: it gets a new, signed id.
    const forged = await post(`${ip}1`, 'parla_visitor=someone-else');
    expect(forged.cookies.find((c) => c.name === 'parla_visitor')?.value).not.toBe('someone-else');
  });

  it("removes a deleted account's audio from disk", async () => {
    const { authorization } = await signedInUser(app);
    const result = (await convert(settings('Delete me.'), { authorization })).json() as {
      path: string;
    };
    const file = path.join(audioDir, path.basename(result.path));
    expect(existsSync(file)).toBe(true);
    await app.inject({ method: 'DELETE', url: '/api/account/delete', headers: { authorization } });
    expect(existsSync(file)).toBe(false);
    expect((await app.inject({ method: 'GET', url: result.path })).statusCode).toBe(404);
    expect(readdirSync(audioDir).length).toBeGreaterThan(0);
  });
});

describe(`speech failures that are ours (${TEST_DATABASE_KIND})`, () => {
  it('answer 500 without internals', async () => {
    // The operator asked for a native espeak-ng that is not installed: engine_unavailable.
    const broken = await createTestApp({
      config: testConfig({
        PARLA_SPEECH_BACKEND: 'native',
        PARLA_ESPEAK_NG: '/nonexistent/espeak-ng',
      }),
      conversionsPerMinute: 1000,
    });
    const response = await broken.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: settings('Hello.'),
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      message: CONVERT_MESSAGES.failed,
      path: null,
      duration: null,
    });
    expect(response.body).not.toMatch(/espeak|nonexistent/);
  });
});
