import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, innerSilences, medianF0 } from '../../../test/audio.js';
import { type FakeOpenAi, startFakeOpenAi } from '../../../test/providers/openai-server.js';
import { request } from '../../../test/request.js';
import { SpeechError } from '../../errors.js';
import { speechMarks } from '../../marks.js';
import { synthesize } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import type { SpeechConfig } from '../registry.js';

let server: FakeOpenAi;
let listing: FakeOpenAi;
let round = 0;

beforeAll(async () => {
  server = await startFakeOpenAi();
  listing = await startFakeOpenAi({ listsVoices: true, voices: ['af_heart', 'bm_george'] });
});
afterAll(async () => {
  await server.close();
  await listing.close();
});
afterEach(() => {
  server.calls.length = 0;
  server.fail(0);
});

function configOf(
  fake: FakeOpenAi,
  overrides: Partial<NonNullable<SpeechConfig['openai']>> = {},
): SpeechConfig {
  round += 1;
  return {
    espeak: { backend: 'wasm' },
    openai: { url: fake.url, key: fake.key, model: 'tts-1', concurrency: 2 + round, ...overrides },
  };
}

const speechCalls = () => server.calls.filter((call) => call.path === '/v1/audio/speech');

describe('the OpenAI-compatible engine', () => {
  it('offers the configured voices, else the server’s own list, else OpenAI’s', async () => {
    const named = (await listVoices(configOf(server, { voices: ['nova', 'onyx'] })))
      .flatMap((l) => l.voices)
      .filter((v) => v.provider === 'openai');
    expect(named.map((v) => v.id)).toEqual(['neural:openai:nova', 'neural:openai:onyx']);
    expect(named[0]).toMatchObject({ engine: 'neural', name: 'Nova (tts-1)', effects: [] });

    const listed = (await listVoices(configOf(listing)))
      .flatMap((l) => l.voices)
      .filter((v) => v.provider === 'openai');
    expect(listed.map((v) => v.id)).toEqual(['neural:openai:af_heart', 'neural:openai:bm_george']);
    expect(listing.calls.some((call) => call.path === '/v1/audio/voices')).toBe(true);

    // OpenAI itself lists no voices (404): its own ten are offered.
    const defaults = (await listVoices(configOf(server)))
      .flatMap((l) => l.voices)
      .filter((v) => v.provider === 'openai');
    expect(defaults.map((v) => v.id)).toContain('neural:openai:shimmer');
    expect(defaults).toHaveLength(10);
  });

  it('renders plain text at the asked speed, with estimated word timings', async () => {
    const config = configOf(server, { voices: ['nova'] });
    const result = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:openai:nova',
        text: 'Read this <emphasis>clearly</emphasis>, please.',
        output_format: 'wav',
        master_speed: 50,
      }),
      config,
    );
    const [call] = speechCalls();
    expect(call?.body).toEqual({
      model: 'tts-1',
      input: 'Read this clearly, please.',
      voice: 'nova',
      response_format: 'wav',
      // +50 % speed is √2 times the rate, as for every engine.
      speed: expect.closeTo(Math.SQRT2, 5),
    });
    expect(result.warnings.some((w) => w.message.includes('does not render emphasis'))).toBe(true);
    const decoded = decodeWav(result.audio);
    expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(0.5);
    const words = result.marks.filter((mark) => mark.type === 'word').map((mark) => mark.text);
    expect(words).toEqual(['Read', 'this', 'clearly', 'please']);
  });

  it('moves pitch by signal processing and cuts long text into 4,096-character requests', async () => {
    const config = configOf(server, { voices: ['nova'] });
    const say = (overrides: Parameters<typeof request>[0]) =>
      synthesize(
        request({
          engine: 'neural',
          voice_id: 'neural:openai:nova',
          output_format: 'wav',
          ...overrides,
        }),
        config,
      );
    const f0 = (audio: Uint8Array) => {
      const { samples, sampleRate } = decodeWav(audio);
      return medianF0(samples, sampleRate);
    };
    const text = 'A steady voice for this test.';
    const ratio =
      f0((await say({ text, master_pitch: 50 })).audio) / f0((await say({ text })).audio);
    expect(ratio).toBeGreaterThan(1.1);

    server.calls.length = 0;
    const long = 'words and more words '.repeat(200);
    expect(long.length).toBeGreaterThan(4096);
    await say({ text: long });
    const calls = speechCalls();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(call.body?.input?.length).toBeLessThanOrEqual(4096);
    }
  }, 60_000);

  it('tells a wrong key and rate limiting apart, without the key in the message', async () => {
    const wrong = configOf(server, { key: 'sk-wrong', voices: ['nova'] });
    const refused = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:openai:nova',
        text: 'Hi.',
        output_format: 'wav',
      }),
      wrong,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SpeechError);
    expect((refused as SpeechError).code).toBe('provider_unavailable');
    expect((refused as SpeechError).message).toMatch(/refused this server's credentials/);
    expect((refused as SpeechError).message).not.toContain('sk-');

    server.fail(5);
    const limited = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:openai:nova',
        text: 'Hi.',
        output_format: 'wav',
      }),
      configOf(server, { voices: ['nova'] }),
    ).catch((e: unknown) => e);
    expect((limited as SpeechError).message).toMatch(/busy right now/);
    expect(server.calls.at(-1)?.status).toBe(429);
  });
});

describe('whole text to OpenAI-compatible servers (issue 27)', () => {
  it('sends whole sentences: one call per stretch between breaks, prosody approximated and warned', async () => {
    const config = configOf(server, { voices: ['nova'] });
    const ssml =
      '<speak>First we speak plainly. <prosody rate="slow">Then we slow down</prosody> for a while.<break time="700ms"/> A pause came before this one. And this ends <prosody volume="+6dB">loudly</prosody>.</speak>';
    const result = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:openai:nova',
        text: ssml,
        output_format: 'wav',
      }),
      config,
    );
    const calls = speechCalls();
    expect(calls.map((call) => call.status)).toEqual([200, 200]);
    // The break is where the text is cut (its silence is made exactly); nothing else is.
    expect(calls.map((call) => call.body?.input)).toEqual([
      'First we speak plainly. Then we slow down for a while.',
      'A pause came before this one. And this ends loudly.',
    ]);
    // Plain text has one speed: the speed of most of the call's text.
    expect(calls.map((call) => call.body?.speed)).toEqual([1, 1]);
    const approximated = result.warnings.filter((w) => w.code === 'prosody_approximated');
    // Each where its <prosody> opened.
    expect(approximated.map((w) => [w.line, w.column])).toEqual([
      [1, 32],
      [1, 159],
    ]);
    expect(approximated[0]?.message).toContain(
      '"Then we slow down" is read like the text around it',
    );
    // Every word marked, in order, as the contract suite reads marks.
    const words = speechMarks(ssml, result.marks).filter((mark) => mark.type === 'word');
    for (let i = 1; i < words.length; i++) {
      expect(words[i]?.time).toBeGreaterThanOrEqual(words[i - 1]?.time ?? 0);
    }
    expect(words.map((mark) => mark.value).join(' ')).toBe(
      'First we speak plainly Then we slow down for a while A pause came before this one And this ends loudly',
    );
    expect(result.marks.filter((mark) => mark.type === 'sentence')).toHaveLength(4);
    const { samples, sampleRate } = decodeWav(result.audio);
    const longest = Math.max(...innerSilences(samples, sampleRate));
    expect(longest).toBeGreaterThan(0.6);
  }, 60_000);

  it('cuts a text over 4,096 characters at a sentence end, in as few calls as fit', async () => {
    const config = configOf(server, { voices: ['nova'] });
    const sentences = Array.from(
      { length: 80 },
      (_, i) => `Sentence number ${i + 1} is one of many in this long chapter of text.`,
    );
    const text = sentences.join(' ');
    expect(text.length).toBeGreaterThan(4096);
    expect(text.length).toBeLessThan(8192);
    const result = await synthesize(
      request({ engine: 'neural', voice_id: 'neural:openai:nova', text, output_format: 'wav' }),
      config,
    );
    const inputs = speechCalls().map((call) => call.body?.input ?? '');
    expect(inputs).toHaveLength(2);
    for (const input of inputs) {
      expect(input.length).toBeLessThanOrEqual(4096);
      expect(input).toMatch(/^Sentence number \d+ .*\.$/);
    }
    expect(inputs.join(' ')).toBe(text);
    expect(result.marks.filter((mark) => mark.type === 'sentence')).toHaveLength(80);
    expect(result.marks.filter((mark) => mark.type === 'word')).toHaveLength(
      text.split(' ').length,
    );
  }, 60_000);
});
