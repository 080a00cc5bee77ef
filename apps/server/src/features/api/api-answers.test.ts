import type { AddressInfo } from 'node:net';
import { parseBuffer } from 'music-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { BAD_API_KEY_MESSAGE, SIGNED_OUT_MESSAGE } from '../../plugins/auth.js';
import { API_MESSAGES } from './routes.js';

/** Issue 27 item 4: the public API answers as a careful API does. */
const app = await createTestApp({ config: testConfig(), conversionsPerMinute: 1000 });
/** With small limits per plan, so that a test reaches them. */
const limited = await createTestApp({
  config: testConfig(),
  conversionsPerMinute: { anonymous: 3, FREE: 3, BASIC: 6, PREMIUM: 6, BUSINESS: 6 },
});
let baseUrl = '';

beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

async function newKey(authorization: string, on = app) {
  const response = await on.inject({
    method: 'POST',
    url: '/api/account/api_keys',
    headers: { authorization },
    payload: { name: 'script' },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; key: string };
}

const remaining = async (authorization: string) => {
  const response = await app.inject({
    method: 'GET',
    url: '/api/account/profile',
    headers: { authorization },
  });
  return (response.json() as { plan: { count_characters: number } }).plan.count_characters;
};

/** Characters the anonymous allowance of this test's address has spent. */
async function anonymousSpent() {
  const row = await app.db
    .selectFrom('visitor_usage')
    .select('characters_used')
    .where('visitor_key', '=', 'ip:127.0.0.1')
    .executeTakeFirst();
  return row?.characters_used ?? 0;
}

describe(`rate limits follow the key owner's plan (${TEST_DATABASE_KIND})`, () => {
  it('an anonymous caller gets the anonymous limit, a paid key its plan', async () => {
    const statuses = async (headers: Record<string, string>, count: number) => {
      const answers = [];
      for (let i = 0; i < count; i += 1) {
        const response = await limited.inject({
          method: 'POST',
          url: '/api/v1/speech',
          headers: { ...headers, accept: 'application/json' },
          payload: { text: `Hi ${i}.` },
        });
        answers.push(response.statusCode);
      }
      return answers;
    };
    expect(await statuses({}, 4)).toEqual([200, 200, 200, 429]);
    const { authorization } = await signedInUser(limited, { plan: 'BUSINESS' });
    const { key } = await newKey(authorization, limited);
    expect(await statuses({ 'x-api-key': key }, 7)).toEqual([200, 200, 200, 200, 200, 200, 429]);
  });
});

describe(`credentials that do not verify (${TEST_DATABASE_KIND})`, () => {
  it('a revoked key is refused with 401 on every route, never served as a visitor', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const { id, key } = await newKey(authorization);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/account/api_keys/${id}`,
      headers: { authorization },
    });
    expect(revoked.statusCode).toBe(200);
    const spentBefore = await anonymousSpent();
    const speech = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      payload: { text: 'Hello there.' },
    });
    expect(speech.statusCode).toBe(401);
    expect(speech.json()).toEqual({ message: BAD_API_KEY_MESSAGE });
    const voices = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices/summary',
      headers: { 'x-api-key': key },
    });
    expect(voices.statusCode).toBe(401);
    // The convertor says it in its own shape.
    const convert = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      headers: { 'x-api-key': key },
      payload: {},
    });
    expect(convert.statusCode).toBe(401);
    expect(convert.json()).toMatchObject({ success: false, message: BAD_API_KEY_MESSAGE });
    expect(await anonymousSpent()).toBe(spentBefore);
  });

  it('a bad or expired login token is refused with 401, and no token at all is a visitor', async () => {
    for (const token of ['not-a-jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl']) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/convertor/voices/summary',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: SIGNED_OUT_MESSAGE });
    }
    const open = await app.inject({ method: 'GET', url: '/api/convertor/voices/summary' });
    expect(open.statusCode).toBe(200);
  });
});

describe(`POST /api/v1/speech names the field to fix (${TEST_DATABASE_KIND})`, () => {
  const speak = (payload: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { accept: 'application/json' },
      payload,
    });

  it('an unknown voice names voice, an unknown language names language', async () => {
    const voice = await speak({ text: 'Hello.', voice: 'neural:nobody' });
    expect(voice.statusCode).toBe(400);
    expect(voice.json()).toEqual({
      message: API_MESSAGES.unknownVoice('neural:nobody'),
      errors: [{ path: 'voice', message: API_MESSAGES.unknownVoice('neural:nobody') }],
    });
    const language = await speak({ text: 'Hello.', language: 'qq-QQ' });
    expect(language.statusCode).toBe(400);
    expect(language.json().errors).toEqual([
      { path: 'language', message: API_MESSAGES.unknownLanguage('qq-QQ') },
    ]);
  });

  it("names the API's own field of a setting the voice cannot take", async () => {
    const response = await speak({ text: 'Hello.', format: 'wav', sample_rate: 24000 });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((error: { path: string }) => error.path)).toEqual([
      'sample_rate',
    ]);
  });
});

describe(`Idempotency-Key on every route that charges (${TEST_DATABASE_KIND})`, () => {
  it("OpenAI's route: a retry with the SDK's key is answered again and charged once", async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const { key } = await newKey(authorization);
    const before = await remaining(authorization);
    const send = () =>
      fetch(`${baseUrl}/v1/audio/speech`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': 'stainless-node-retry-0001',
        },
        body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Charged once.' }),
      });
    const first = await send();
    const audio = new Uint8Array(await first.arrayBuffer());
    expect(first.status).toBe(200);
    const charged = before - (await remaining(authorization));
    expect(charged).toBe('Charged once.'.length);
    const second = await send();
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const replayed = new Uint8Array(await second.arrayBuffer());
    expect(replayed).toEqual(audio);
    expect((await parseBuffer(replayed, 'audio/mpeg')).format.duration).toBeGreaterThan(0.3);
    expect(before - (await remaining(authorization))).toBe(charged);
  });

  it('the convertor: the same key twice is one conversion, another request is refused', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const before = await remaining(authorization);
    const convert = (text: string) =>
      app.inject({
        method: 'POST',
        url: '/api/convertor',
        headers: { authorization, 'idempotency-key': 'convert-once-0001' },
        payload: voiceSettings({ text }),
      });
    const first = await convert('Once only.');
    expect(first.statusCode).toBe(200);
    const again = await convert('Once only.');
    expect(again.statusCode).toBe(200);
    expect(again.json().path).toBe(first.json().path);
    expect(before - (await remaining(authorization))).toBe('Once only.'.length);
    const other = await convert('Something else.');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ success: false, message: API_MESSAGES.idempotencyReused });
  });
});
