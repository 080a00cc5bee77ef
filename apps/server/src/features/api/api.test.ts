import { type AddressInfo, connect } from 'node:net';
import { parseBuffer } from 'music-metadata';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { API_KEY_REFUSED_MESSAGE, BAD_API_KEY_MESSAGE } from '../../plugins/auth.js';
import { API_KEY_MESSAGES } from '../../services/accounts/api-key-repository.js';
import { API_MESSAGES } from './routes.js';

/** The public API (issue 16): keys, one call with defaults, OpenAI's endpoint, CORS. */
const app = await createTestApp({ config: testConfig(), conversionsPerMinute: 1000 });
let baseUrl = '';

beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

async function newKey(authorization: string, name = 'script') {
  const response = await app.inject({
    method: 'POST',
    url: '/api/account/api_keys',
    headers: { authorization },
    payload: { name },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; key: string; prefix: string; name: string };
}

const remaining = async (authorization: string) => {
  const response = await app.inject({
    method: 'GET',
    url: '/api/account/profile',
    headers: { authorization },
  });
  return (response.json() as { plan: { count_characters: number } }).plan.count_characters;
};

describe(`API keys (${TEST_DATABASE_KIND})`, () => {
  it('creates a key shown once, lists it without the key, and keeps only its hash', async () => {
    const { authorization, user } = await signedInUser(app);
    const created = await newKey(authorization, 'Home Assistant');
    expect(created.key).toMatch(/^parla_[\w-]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix).toHaveLength(12);
    const list = await app.inject({
      method: 'GET',
      url: '/api/account/api_keys',
      headers: { authorization },
    });
    expect(list.json()).toEqual([
      {
        id: created.id,
        name: 'Home Assistant',
        prefix: created.prefix,
        created_date: expect.any(String),
        last_used_date: null,
      },
    ]);
    expect(list.body).not.toContain(created.key);
    const rows = await app.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(12));

    // The key signs requests in, by either header, and its last use is shown.
    for (const headers of [
      { authorization: `Bearer ${created.key}` },
      { 'x-api-key': created.key },
    ]) {
      const profile = await app.inject({ method: 'GET', url: '/api/account/profile', headers });
      expect(profile.statusCode).toBe(200);
    }
    const used = await app.inject({
      method: 'GET',
      url: '/api/account/api_keys',
      headers: { authorization },
    });
    expect((used.json() as { last_used_date: string | null }[])[0]?.last_used_date).not.toBeNull();
  });

  it('refuses keys on what changes the account, its billing or its keys', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const { key } = await newKey(authorization);
    const asKey = { authorization: `Bearer ${key}` };
    const attempts = [
      {
        method: 'PUT',
        url: '/api/account/change_password',
        payload: { old_password: 'x', new_password: 'y' },
      },
      { method: 'PUT', url: '/api/account/change_email', payload: { email: 'new@example.com' } },
      { method: 'DELETE', url: '/api/account/delete', payload: {} },
      { method: 'GET', url: '/api/account/api_keys' },
      { method: 'POST', url: '/api/account/api_keys', payload: { name: 'more' } },
      { method: 'POST', url: '/api/plan/payment?plan=BASIC', payload: {} },
      { method: 'POST', url: '/api/auth/logout' },
    ] as const;
    for (const attempt of attempts) {
      const response = await app.inject({ ...attempt, headers: asKey });
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(403);
      expect(response.json()).toMatchObject({ message: API_KEY_REFUSED_MESSAGE });
    }
  });

  it('revokes a key at once, names a bad name, and bounds the number of keys', async () => {
    const { authorization } = await signedInUser(app);
    const { id, key } = await newKey(authorization);
    const revoke = await app.inject({
      method: 'DELETE',
      url: `/api/account/api_keys/${id}`,
      headers: { authorization },
    });
    expect(revoke.json()).toEqual({ message: API_KEY_MESSAGES.revoked });
    const after = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: BAD_API_KEY_MESSAGE });
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/account/api_keys/${id}`,
      headers: { authorization },
    });
    expect(again.statusCode).toBe(404);

    const other = await signedInUser(app);
    const { id: theirs } = await newKey(other.authorization);
    const foreign = await app.inject({
      method: 'DELETE',
      url: `/api/account/api_keys/${theirs}`,
      headers: { authorization },
    });
    expect(foreign.statusCode).toBe(404);

    for (const payload of [{}, { name: '' }, { name: 'x'.repeat(61) }, 'not json']) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/account/api_keys',
        headers: { authorization, 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/name|JSON/);
    }
    for (let i = 0; i < 20; i++) await newKey(authorization, `key ${i}`);
    const tooMany = await app.inject({
      method: 'POST',
      url: '/api/account/api_keys',
      headers: { authorization },
      payload: { name: 'one more' },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: API_KEY_MESSAGES.tooMany });
  });
});

describe(`POST /api/v1/speech (${TEST_DATABASE_KIND})`, () => {
  it('speaks a text given alone, answering the audio and its facts in headers', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const { key } = await newKey(authorization);
    const before = await remaining(authorization);
    const text = 'One call, every default.';
    const response = await fetch(`${baseUrl}/api/v1/speech`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('x-parla-characters')).toBe(String(text.length));
    expect(response.headers.get('x-parla-marks-path')).toMatch(/^\/api\/convertor\/marks\//);
    const audio = new Uint8Array(await response.arrayBuffer());
    const metadata = await parseBuffer(audio, { mimeType: 'audio/mpeg' });
    expect(metadata.format.duration).toBeGreaterThan(1);
    expect(await remaining(authorization)).toBe(before - text.length);
  });

  it('answers SPEC JSON on Accept: application/json, and names a bad field', async () => {
    const { authorization } = await signedInUser(app);
    const json = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { authorization, accept: 'application/json' },
      payload: { text: 'Bonjour.', language: 'fr', format: 'wav' },
    });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({
      success: true,
      path: expect.stringMatching(/\.wav$/),
      duration: expect.any(Number),
      characters: 8,
    });
    expect(Number(json.headers['x-parla-duration'])).toBeCloseTo(json.json().duration, 2);
    const cases = [
      [{ text: 'x', speed: 500 }, 'speed'],
      [{ text: 'x', format: 'flac' }, 'format'],
      [{ text: 'x', volume: 'loud' }, 'volume'],
      [{ text: 'x', colour: 'red' }, 'colour'],
      [{}, 'text'],
      [{ text: 'x', voice: 'standard:nobody' }, 'voice'],
      [{ text: 'x', engine: 'standard', format: 'wav', sample_rate: 48000 }, '16000'],
    ] as const;
    for (const [payload, field] of cases) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/v1/speech',
        headers: { authorization },
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(bad.json()), JSON.stringify(payload)).toContain(field);
    }
  });

  it('answers a retry with the same Idempotency-Key once, charging once', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const before = await remaining(authorization);
    const call = (text: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/speech',
        headers: { authorization, accept: 'application/json', 'idempotency-key': 'order-42' },
        payload: { text },
      });
    const first = await call('Charge me once.');
    const second = await call('Charge me once.');
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().path).toBe(first.json().path);
    expect(await remaining(authorization)).toBe(before - 'Charge me once.'.length);
    const other = await call('Another text.');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ message: API_MESSAGES.idempotencyReused });
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/speech',
      headers: { 'idempotency-key': 'x' },
      payload: { text: 'Hello.' },
    });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().errors[0].path).toBe('Idempotency-Key');
  });

  it('frames an idempotent answer with a length or chunks, never both', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const body = JSON.stringify({ text: 'Hi.', format: 'wav' });
    /** The raw head of the answer, as the wire has it (a client's parser would refuse both). */
    const call = (key: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = app.server.address() as AddressInfo;
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(
            [
              'POST /api/v1/speech HTTP/1.1',
              'Host: 127.0.0.1',
              `Authorization: ${authorization}`,
              `Idempotency-Key: ${key}`,
              'Content-Type: application/json',
              `Content-Length: ${Buffer.byteLength(body)}`,
              'Connection: close',
              '',
              body,
            ].join('\r\n'),
          ),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const all = Buffer.concat(chunks).toString('latin1');
          resolve(all.slice(0, all.indexOf('\r\n\r\n')));
        });
      });
    // A short text may end rendering before its answer starts (stored: a length), or not (a
    // stream: chunks, the duration a trailer); a replay finds it stored.
    for (let i = 0; i < 20; i++) {
      for (const replay of [false, true]) {
        const head = await call(`frame-${i}`);
        expect(head).toMatch(/^HTTP\/1\.1 200/);
        const chunked = /^transfer-encoding: chunked$/im.test(head);
        const length = /^content-length: \d+$/im.test(head);
        expect(chunked !== length, head).toBe(true);
        if (length) expect(head).toMatch(/^x-parla-duration: \d+\.\d{3}$/im);
        else expect(head).toMatch(/^trailer: x-parla-duration$/im);
        if (replay) expect(head).toMatch(/^idempotent-replayed: true$/im);
      }
    }
  }, 60_000);
});

describe(`OpenAI-compatible /v1 (${TEST_DATABASE_KIND})`, () => {
  it('converts through the official openai SDK with a Parla key', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const { key } = await newKey(authorization);
    const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
    const speech = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'nova',
      input: 'Parla speaks OpenAI.',
      speed: 1.25,
    });
    const audio = new Uint8Array(await speech.arrayBuffer());
    const metadata = await parseBuffer(audio, { mimeType: 'audio/mpeg' });
    expect(metadata.format.duration).toBeGreaterThan(0.8);
    const wav = await client.audio.speech.create({
      model: 'parla-standard',
      voice: 'standard:en-us+m3',
      input: 'Slowly now.',
      response_format: 'wav',
      speed: 0.5,
    });
    const wavBytes = new Uint8Array(await wav.arrayBuffer());
    expect(new TextDecoder().decode(wavBytes.subarray(0, 4))).toBe('RIFF');
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('tts-1');
  });

  it('refuses as OpenAI does: a bad key, an unknown model, a format Parla lacks', async () => {
    const { authorization } = await signedInUser(app);
    const { key } = await newKey(authorization);
    const wrong = new OpenAI({
      apiKey: 'parla_not-a-key',
      baseURL: `${baseUrl}/v1`,
      maxRetries: 0,
    });
    await expect(
      wrong.audio.speech.create({ model: 'tts-1', voice: 'nova', input: 'x' }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
    const model = await client.audio.speech
      .create({ model: 'nope', voice: 'nova', input: 'x' })
      .catch((e: unknown) => e);
    expect(model).toBeInstanceOf(OpenAI.BadRequestError);
    expect((model as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('model');
    const flac = await client.audio.speech
      .create({ model: 'tts-1', voice: 'nova', input: 'x', response_format: 'flac' })
      .catch((e: unknown) => e);
    expect((flac as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('response_format');
    const speed = await client.audio.speech
      .create({ model: 'tts-1', voice: 'nova', input: 'x', speed: 9 })
      .catch((e: unknown) => e);
    expect((speed as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('speed');
    const voice = await client.audio.speech
      .create({ model: 'tts-1', voice: 'robot', input: 'x' })
      .catch((e: unknown) => e);
    expect((voice as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('voice');
  });
});

describe('CORS_ORIGINS', () => {
  const cors = createTestApp({ config: testConfig({ CORS_ORIGINS: 'https://app.example.com' }) });
  const open = createTestApp({ config: testConfig({ CORS_ORIGINS: '*' }) });
  afterAll(async () => {
    await (await cors).close();
    await (await open).close();
  });

  it('answers the preflight of an allowed origin, and no other', async () => {
    const preflight = (origin: string, url = '/api/v1/speech') =>
      cors.then((server) =>
        server.inject({
          method: 'OPTIONS',
          url,
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        }),
      );
    const allowed = await preflight('https://app.example.com');
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(allowed.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    const other = await preflight('https://evil.example.com');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // Pages are not shared with other origins.
    const page = await preflight('https://app.example.com', '/pricing');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    const any = await (await open).inject({
      method: 'GET',
      url: '/api/convertor/voices/summary',
      headers: { origin: 'https://anywhere.example' },
    });
    expect(any.headers['access-control-allow-origin']).toBe('*');
    expect(any.headers['access-control-allow-credentials']).toBeUndefined();
    expect(any.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
