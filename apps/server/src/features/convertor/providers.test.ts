import { AdminHealthSchema } from '@parla/contract';
import {
  type FakeOpenAi,
  type FakePolly,
  startFakeOpenAi,
  startFakePolly,
} from '@parla/speech/testing';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { setRole } from '../../services/admin/administrators.js';

/**
 * Cloud voices through the server (issue 15): Amazon Polly and an OpenAI-compatible server,
 * each a local server speaking the provider's API. Conversions charge as any other; a
 * provider's failure is a 503 saying so, and charges nothing.
 */
let polly: FakePolly;
let openai: FakeOpenAi;
let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  polly = await startFakePolly();
  openai = await startFakeOpenAi();
  app = await createTestApp({
    config: testConfig({
      POLLY_REGION: polly.region,
      POLLY_ENDPOINT: polly.url,
      AWS_ACCESS_KEY_ID: polly.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: polly.credentials.secretAccessKey,
      OPENAI_TTS_URL: openai.url,
      OPENAI_TTS_KEY: openai.key,
      OPENAI_TTS_VOICES: 'nova,onyx',
      REMOTE_SPEECH_TIMEOUT_SECONDS: '5',
    }),
    conversionsPerMinute: 1000,
  });
});
afterAll(async () => {
  await polly.close();
  await openai.close();
});

/** The characters a user may still convert (My Plan's count). */
const remaining = async (authorization: string) => {
  const response = await app.inject({
    method: 'GET',
    url: '/api/account/profile',
    headers: { authorization },
  });
  return (response.json() as { plan: { count_characters: number } }).plan.count_characters;
};

describe(`cloud voices through the API (${TEST_DATABASE_KIND})`, () => {
  it('lists the providers’ voices beside espeak-ng’s, and never a key', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices?language=en-US',
    });
    expect(response.statusCode).toBe(200);
    const body = response.body;
    expect(body).toContain('"neural:polly:Joanna"');
    expect(body).toContain('"standard:polly:Joanna"');
    expect(body).toContain('"neural:openai:nova"');
    expect(body).not.toContain(polly.credentials.secretAccessKey);
    expect(body).not.toContain(polly.credentials.accessKeyId);
    expect(body).not.toContain(openai.key);
  });

  it('converts with a Polly voice: real audio, charged like any conversion', async () => {
    const user = await signedInUser(app, { plan: 'BASIC' });
    const before = await remaining(user.authorization);
    const text = 'Hello from Amazon Polly.';
    const response = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { authorization: user.authorization },
      payload: voiceSettings({
        engine: 'neural',
        voice_id: 'neural:polly:Joanna',
        language_code: 'en-US',
        text,
        output_format: 'mp3',
        sample_rate: 48000,
      }),
    });
    expect(response.statusCode).toBe(200);
    const result = response.json() as { success: boolean; path: string; duration: number };
    expect(result.success).toBe(true);
    const audio = await app.inject({
      method: 'GET',
      url: result.path,
      headers: { authorization: user.authorization },
    });
    const metadata = await parseBuffer(audio.rawPayload, { mimeType: 'audio/mpeg' });
    expect(metadata.format.sampleRate).toBe(48000);
    expect(metadata.format.duration).toBeGreaterThan(0.8);
    expect(Math.abs((metadata.format.duration ?? 0) - result.duration)).toBeLessThan(0.2);
    expect(await remaining(user.authorization)).toBe(before - text.length);
    const synth = polly.calls.filter((call) => call.operation === 'SynthesizeSpeech');
    expect(
      synth.some((call) => call.body?.VoiceId === 'Joanna' && call.body.Engine === 'neural'),
    ).toBe(true);
  });

  it('answers a provider’s failure with 503 and its message, charging nothing', async () => {
    const user = await signedInUser(app, { plan: 'BASIC' });
    const before = await remaining(user.authorization);
    openai.fail(100);
    const response = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { authorization: user.authorization },
      payload: voiceSettings({
        engine: 'neural',
        voice_id: 'neural:openai:nova',
        language_code: 'en-US',
        text: 'This will not be heard.',
        output_format: 'mp3',
        sample_rate: 48000,
      }),
    });
    openai.fail(0);
    expect(response.statusCode).toBe(503);
    const body = response.json() as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/^The OpenAI-compatible voice server is busy right now/);
    expect(body.message).not.toContain(openai.key);
    expect(await remaining(user.authorization)).toEqual(before);

    const ready = await app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    const providers = (ready.json() as { providers: { provider: string; failures: number }[] })
      .providers;
    expect(providers.map((p) => p.provider).sort()).toEqual(['openai', 'polly']);
    expect(providers.find((p) => p.provider === 'openai')?.failures).toBeGreaterThan(0);
    expect(JSON.stringify(providers)).not.toContain(openai.key);

    // The console's overview counts it among the day's errors (decision 053), and its health
    // shows the provider's failures and the engine's failed conversion.
    const logged = await app.db
      .selectFrom('usage_log')
      .select(['source', 'status', 'engine', 'voice', 'language', 'characters', 'duration'])
      .where('user_id', '=', user.user.id)
      .execute();
    expect(logged).toEqual([
      {
        source: 'conversion',
        status: 'failed',
        engine: 'neural',
        voice: 'neural:openai:nova',
        language: 'en-us',
        characters: 'This will not be heard.'.length,
        duration: 0,
      },
    ]);
    const admin = await signedInUser(app);
    expect((await setRole(app.db, { id: admin.user.id }, 'ADMIN', null)).ok).toBe(true);
    const health = AdminHealthSchema.parse(
      (
        await app.inject({
          method: 'GET',
          url: '/api/admin/overview/health',
          headers: { authorization: admin.authorization },
        })
      ).json(),
    );
    expect(health.providers.find((p) => p.provider === 'openai')?.failures).toBeGreaterThan(0);
    expect(JSON.stringify(health)).not.toContain(openai.key);
    expect(health.engines.find((e) => e.engine === 'neural')?.failed).toBe(1);
  });

  it('plays a voice’s preview for free, rendered once and kept', async () => {
    const user = await signedInUser(app, { plan: 'FREE' });
    const before = await remaining(user.authorization);
    polly.calls.length = 0;
    const url = `/api/convertor/voices/preview?voice=${encodeURIComponent('neural:polly:Lea')}`;
    const first = await app.inject({
      method: 'GET',
      url,
      headers: { authorization: user.authorization },
    });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    const metadata = await parseBuffer(first.rawPayload, { mimeType: 'audio/mpeg' });
    expect(metadata.format.duration).toBeGreaterThan(1.5);
    const sent = polly.calls
      .filter((call) => call.body?.OutputFormat === 'ogg_vorbis')
      .map((call) => call.body?.Text)
      .join(' ');
    expect(sent).toContain('Bonjour');
    expect(sent).toContain('Voici ma voix.');
    const calls = polly.calls.length;
    const again = await app.inject({ method: 'GET', url });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(polly.calls.length).toBe(calls);
    expect(await remaining(user.authorization)).toBe(before);

    const unknown = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices/preview?voice=neural:polly:Nobody',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ message: 'Unknown voice "neural:polly:Nobody".' });
    const missing = await app.inject({ method: 'GET', url: '/api/convertor/voices/preview' });
    expect(missing.statusCode).toBe(400);
    expect((missing.json() as { message: string }).message).toMatch(/voice/);
  });
});
