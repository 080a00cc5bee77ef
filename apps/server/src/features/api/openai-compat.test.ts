import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parseBuffer } from 'music-metadata';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { OPENAI_VOICE_GENDERS, styleOf } from './openai-voices.js';

/** Issue 27 item 4: OpenAI's speech endpoint as OpenAI's clients expect it. */
const app = await createTestApp({
  config: testConfig({ CORS_ORIGINS: 'https://app.example.com' }),
  conversionsPerMinute: 1000,
});
let baseUrl = '';
let key = '';

beforeAll(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/account/api_keys',
    headers: { authorization },
    payload: { name: 'openai' },
  });
  key = created.json().key;
});

const speech = (body: Record<string, unknown>) =>
  fetch(`${baseUrl}/v1/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: 'Hello there.', ...body }),
  });

describe(`OpenAI compatibility (${TEST_DATABASE_KIND})`, () => {
  it('gives each OpenAI voice name a voice of its own, of its gender', async () => {
    const catalogue = await app.inject({
      method: 'GET',
      url: '/api/convertor/voices?language=en-US',
    });
    const english =
      (
        catalogue.json() as Array<{
          language_code: string;
          voices: Array<{ gender: string; engine: string }>;
        }>
      ).find((language) => language.language_code.toLowerCase() === 'en-us')?.voices ?? [];
    const engine = english.some((voice) => voice.engine === 'neural') ? 'neural' : 'standard';
    const count = (gender: string) =>
      english.filter((voice) => voice.engine === engine && voice.gender === gender).length;
    const names = Object.keys(OPENAI_VOICE_GENDERS);
    const expected =
      Math.min(count('female'), names.filter((n) => OPENAI_VOICE_GENDERS[n] === 'female').length) +
      Math.min(count('male'), names.filter((n) => OPENAI_VOICE_GENDERS[n] === 'male').length);
    expect(expected).toBeGreaterThan(2);
    const sounds = new Set<string>();
    for (const name of names) {
      const response = await speech({
        voice: name,
        input: 'Good morning.',
        response_format: 'wav',
      });
      expect(response.status, name).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      sounds.add(createHash('sha256').update(bytes.subarray(44)).digest('hex'));
    }
    expect(sounds.size).toBe(expected);
  });

  it('honours the speeds its voices keep to, and refuses the others by name', async () => {
    const seconds = async (speed: number) => {
      const response = await speech({
        voice: 'alloy',
        speed,
        response_format: 'wav',
        input: 'One two three four five six seven eight.',
      });
      expect(response.status, String(speed)).toBe(200);
      const audio = new Uint8Array(await response.arrayBuffer());
      return (await parseBuffer(audio, 'audio/wav')).format.duration ?? 0;
    };
    const normal = await seconds(1);
    expect(await seconds(3)).toBeLessThan(normal / 2.4);
    expect(await seconds(0.5)).toBeGreaterThan(normal * 1.8);
    for (const speed of [0.25, 0.4, 3.5, 4, 5]) {
      const outside = await speech({ voice: 'alloy', speed });
      expect(outside.status, String(speed)).toBe(400);
      const { error } = (await outside.json()) as { error: { message: string; param: string } };
      expect(error.message).toMatch(/^'speed'/);
      expect(error.param).toBe('speed');
    }
  });

  it('streams Server-Sent Events as OpenAI documents them', async () => {
    const response = await speech({
      voice: 'nova',
      stream_format: 'sse',
      input: 'Streaming as events.',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map(
        (frame) =>
          JSON.parse(frame.replace(/^data: /, '')) as {
            type: string;
            audio?: string;
            usage?: { input_tokens: number };
          },
      );
    const deltas = events.filter((event) => event.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({
      type: 'speech.audio.done',
      usage: { input_tokens: 20, output_tokens: 0, total_tokens: 20 },
    });
    const audio = Buffer.concat(deltas.map((event) => Buffer.from(event.audio ?? '', 'base64')));
    expect((await parseBuffer(audio, 'audio/mpeg')).format.duration).toBeGreaterThan(0.5);
  });

  it('takes a style from instructions where the voice has it, and warns where not', async () => {
    const ignored = await speech({ voice: 'alloy', instructions: 'Read it like a pirate.' });
    expect(ignored.status).toBe(200);
    await ignored.arrayBuffer();
    const warnings = JSON.parse(ignored.headers.get('x-parla-warnings') ?? '[]');
    expect(warnings).toEqual([
      { code: 'instructions_ignored', message: expect.stringMatching(/^instructions: /) },
    ]);
  });

  it('lets a browser app on an allowed origin send what the OpenAI SDK sends', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/v1/audio/speech',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,x-stainless-os,x-stainless-lang,x-stainless-retry-count,x-stainless-timeout,x-stainless-package-version,x-stainless-runtime,x-stainless-runtime-version,x-stainless-arch,openai-organization,openai-project,idempotency-key',
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['x-stainless-retry-count', 'x-stainless-timeout', 'openai-project']) {
      expect(allowed).toContain(header);
    }
  });

  it('works through the official SDK with its retries and headers', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 2 });
    const audio = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'echo',
      input: 'Hello.',
    });
    const bytes = new Uint8Array(await audio.arrayBuffer());
    expect((await parseBuffer(bytes, 'audio/mpeg')).format.duration).toBeGreaterThan(0.2);
  });
});

describe('instructions', () => {
  it('reads the style they ask for', () => {
    expect(styleOf('Speak in a cheerful and positive tone.')).toBe('happy');
    expect(styleOf('Whisper, as if telling a secret; stay calm')).toBe('whispered');
    expect(styleOf('Sound unfriendly.')).toBe('unfriendly');
    expect(styleOf('Read it like a pirate.')).toBeUndefined();
  });
});
