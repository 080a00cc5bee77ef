import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav, highBandShare, innerSilences, medianF0 } from '../../../test/audio.js';
import { type FakePolly, startFakePolly } from '../../../test/providers/polly-server.js';
import { request } from '../../../test/request.js';
import { SpeechError } from '../../errors.js';
import { speechMarks } from '../../marks.js';
import { SpeechPool } from '../../pool/pool.js';
import { synthesize } from '../../synthesize.js';
import { listVoices } from '../../voices.js';
import { engineRegistry, type SpeechConfig } from '../registry.js';
import { FAILURES_TO_MARK } from '../remote/provider.js';

let polly: FakePolly;
let config: SpeechConfig;
let round = 0;

beforeAll(async () => {
  polly = await startFakePolly();
});
afterAll(() => polly.close());

/** A fresh configuration per test: its own engines, voice list and provider record. */
function freshConfig(overrides: Partial<NonNullable<SpeechConfig['polly']>> = {}): SpeechConfig {
  round += 1;
  return {
    espeak: { backend: 'wasm' },
    polly: {
      region: polly.region,
      endpoint: `${polly.url}/`,
      credentials: polly.credentials,
      // Differs per test so that each builds its own engines.
      concurrency: 4 + round,
      ...overrides,
    },
  };
}

afterEach(() => {
  polly.calls.length = 0;
  polly.delayMs = 0;
  polly.fail(0, 'throttle');
});

const speechCalls = () =>
  polly.calls.filter(
    (call) => call.operation === 'SynthesizeSpeech' && call.body?.OutputFormat === 'ogg_vorbis',
  );

describe('the Amazon Polly engine', () => {
  beforeAll(() => {
    config = freshConfig();
  });

  it('lists Polly voices under the engines Polly gives them, paging DescribeVoices', async () => {
    const languages = await listVoices(config);
    const voices = languages.flatMap((language) => language.voices);
    const polly = voices.filter((voice) => voice.provider === 'polly');
    const ids = polly.map((voice) => voice.id).sort();
    expect(ids).toEqual(
      [
        'neural:polly:Danielle',
        'neural:polly:Danielle~long-form',
        'neural:polly:Joanna',
        'neural:polly:Lea',
        'neural:polly:Matthew',
        'neural:polly:Matthew~generative',
        'standard:polly:Hans',
        'standard:polly:Joanna',
        'standard:polly:Lea',
        'standard:polly:Matthew',
      ].sort(),
    );
    const matthew = polly.find((voice) => voice.id === 'neural:polly:Matthew~generative');
    expect(matthew).toMatchObject({
      engine: 'neural',
      name: 'Matthew (generative)',
      gender: 'male',
    });
    // Polly's standard voices carry the three effects SPEC takes from Polly; neural ones none.
    expect(polly.find((v) => v.id === 'standard:polly:Joanna')?.effects).toEqual([
      'breathing',
      'soft',
      'whispered',
    ]);
    expect(polly.find((v) => v.id === 'neural:polly:Joanna')?.effects).toEqual([]);
    // fr-FR joins the French that espeak-ng already lists, not a second "French".
    const french = languages.filter((l) => l.language_code.toLowerCase() === 'fr-fr');
    expect(french).toHaveLength(1);
    expect(french[0]?.voices.map((v) => v.id)).toEqual(
      expect.arrayContaining(['standard:fr-fr', 'neural:polly:Lea', 'standard:polly:Lea']),
    );
  });

  it('renders a neural voice: real speech, word timings from its speech marks', async () => {
    const result = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:polly:Joanna',
        text: 'The quick brown fox jumps over the lazy dog.',
        output_format: 'wav',
        sample_rate: 24000,
      }),
      config,
    );
    const decoded = decodeWav(result.audio);
    expect(decoded.sampleRate).toBe(24000);
    // Polly's Ogg Vorbis at 24 kHz, decoded: speech has energy above 8 kHz, which the 16 kHz
    // PCM Polly also offers could not carry.
    expect(highBandShare(decoded.samples, decoded.sampleRate, 8000)).toBeGreaterThan(0.001);
    expect(result.duration).toBeGreaterThan(1.2);
    const words = result.marks.filter((mark) => mark.type === 'word');
    expect(words.map((w) => w.text)).toEqual([
      'The',
      'quick',
      'brown',
      'fox',
      'jumps',
      'over',
      'the',
      'lazy',
      'dog',
    ]);
    for (let i = 1; i < words.length; i++) {
      expect(words[i]?.start).toBeGreaterThan(words[i - 1]?.start ?? 0);
    }
    expect(words.at(-1)?.start).toBeGreaterThan(result.duration / 2);
    // One audio call and one speech-marks call, as Polly documents them.
    const synth = polly.calls.filter((call) => call.operation === 'SynthesizeSpeech');
    expect(synth.map((call) => call.body?.OutputFormat).sort()).toEqual(['json', 'ogg_vorbis']);
    const marksCall = synth.find((call) => call.body?.OutputFormat === 'json');
    expect(marksCall?.body).toMatchObject({
      Engine: 'neural',
      VoiceId: 'Joanna',
      TextType: 'ssml',
      SpeechMarkTypes: ['word', 'ssml'],
    });
    expect(speechCalls()[0]?.body).toMatchObject({ SampleRate: '24000' });
  });

  it("asks a standard voice for Polly's best rate for it, 22,050 Hz", async () => {
    const result = await synthesize(
      request({
        voice_id: 'standard:polly:Joanna',
        text: 'Plain and clear.',
        output_format: 'wav',
        sample_rate: 22050,
      }),
      config,
    );
    expect(speechCalls().at(-1)?.body).toMatchObject({ SampleRate: '22050', Engine: 'standard' });
    expect(decodeWav(result.audio).sampleRate).toBe(22050);
    expect(result.duration).toBeGreaterThan(0.5);
  });

  it.each([
    ['whispered', '<amazon:effect name="whispered">'],
    ['soft', '<amazon:effect phonation="soft">'],
    ['breathing', '<amazon:auto-breaths>'],
  ] as const)('sends the %s effect to a standard voice as Polly SSML', async (effect, tag) => {
    const result = await synthesize(
      request({
        voice_id: 'standard:polly:Joanna',
        text: 'Keep this between us.',
        effect,
        output_format: 'wav',
        sample_rate: 16000,
      }),
      config,
    );
    expect(result.duration).toBeGreaterThan(0.5);
    const text = speechCalls()[0]?.body?.Text ?? '';
    expect(text.startsWith(`<speak>${tag}<prosody rate="100%">`)).toBe(true);
    expect(text).toContain('Keep this between us.');
  });

  it('maps prosody and marks; neural pitch is moved by our signal processing', async () => {
    const text =
      '<speak><prosody rate="50%" volume="+3dB">Slowly <mark name="here"/> now.</prosody> <emphasis>Loud</emphasis></speak>';
    const base = await synthesize(
      request({ engine: 'neural', voice_id: 'neural:polly:Joanna', text, output_format: 'wav' }),
      config,
    );
    const sent = speechCalls().map((call) => call.body?.Text);
    expect(sent[0]).toContain(
      '<prosody rate="50%" volume="+3dB">Slowly <mark name="here"/> now.</prosody>',
    );
    // Neural Polly voices take no emphasis and no pitch: neither is sent.
    expect(sent.join('')).not.toMatch(/<emphasis|pitch=/);
    expect(base.marks.some((mark) => mark.type === 'mark' && mark.text === 'here')).toBe(true);
    polly.calls.length = 0;
    const higher = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:polly:Joanna',
        text: 'A steady voice for this test.',
        output_format: 'wav',
        master_pitch: 50,
      }),
      config,
    );
    expect(speechCalls()[0]?.body?.Text).not.toContain('pitch=');
    const plain = await synthesize(
      request({
        engine: 'neural',
        voice_id: 'neural:polly:Joanna',
        text: 'A steady voice for this test.',
        output_format: 'wav',
      }),
      config,
    );
    const f0 = (audio: Uint8Array) => {
      const { samples, sampleRate } = decodeWav(audio);
      return medianF0(samples, sampleRate);
    };
    const ratio = f0(higher.audio) / f0(plain.audio);
    expect(ratio).toBeGreaterThan(1.1);
  });

  it('splits a text over 3,000 billed characters at sentence ends, one call each', async () => {
    const sentence = 'This sentence is part of a long chapter that Polly renders in pieces. ';
    // One sentence of the plan is one segment: a run-on paragraph longer than Polly's limit.
    const text = sentence.repeat(50).replaceAll('. ', ', and ');
    expect(text.length).toBeGreaterThan(3000);
    const result = await synthesize(
      request({ voice_id: 'standard:polly:Joanna', text, output_format: 'wav' }),
      config,
    );
    const calls = speechCalls();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect((call.body?.Text ?? '').replace(/<[^>]*>/g, '').length).toBeLessThanOrEqual(3000);
    }
    // The words of every call came back, in order, their times growing across the calls.
    const words = result.marks.filter((mark) => mark.type === 'word');
    expect(words.length).toBeGreaterThan(0.9 * text.split(/\s+/).filter(Boolean).length);
    for (let i = 1; i < words.length; i++) {
      expect(words[i]?.start).toBeGreaterThanOrEqual(words[i - 1]?.start ?? 0);
    }
    expect(words.at(-1)?.text).toBe('and');
    expect(words.at(-1)?.start).toBeGreaterThan(result.duration * 0.9);
  }, 60_000);

  it('answers provider failures with a clear message, and marks the voices after repeated ones', async () => {
    const own = freshConfig();
    const registry = engineRegistry(own);
    await listVoices(own);
    polly.fail(1000, 'throttle');
    const say = () =>
      synthesize(
        request({ voice_id: 'standard:polly:Joanna', text: 'Hello.', output_format: 'wav' }),
        own,
      );
    for (let i = 0; i < FAILURES_TO_MARK; i++) {
      const error = await say().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SpeechError);
      expect((error as SpeechError).code).toBe('provider_unavailable');
      expect((error as SpeechError).message).toMatch(/^Amazon Polly is busy right now/);
    }
    const status = registry.forVoice('standard:polly:Joanna')?.status?.();
    expect(status).toMatchObject({ provider: 'polly', available: false });
    const listed = (await listVoices(own)).flatMap((l) => l.voices);
    expect(listed.find((v) => v.id === 'standard:polly:Joanna')?.available).toBe(false);
    expect(listed.find((v) => v.id === 'standard:en-us')?.available).toBeUndefined();
    // Once Polly answers again, its voices are available again.
    polly.fail(0, 'throttle');
    await say();
    expect(registry.forVoice('neural:polly:Joanna')?.status?.().available).toBe(true);
  });

  it('tells a bad key from a down provider and a slow one', async () => {
    const badKey = freshConfig({
      credentials: { accessKeyId: polly.credentials.accessKeyId, secretAccessKey: 'wrong' },
    });
    const from = polly.calls.length;
    const refused = await listVoices(badKey).catch((e: unknown) => e);
    expect((refused as SpeechError).code).toBe('provider_unavailable');
    expect((refused as SpeechError).message).toMatch(/refused this server's credentials/);
    expect((refused as SpeechError).message).not.toContain('wrong');
    // Polly refused the signature (other engines' voice refreshes may answer in between).
    expect(
      polly.calls.slice(from).filter((call) => call.operation === 'DescribeVoices'),
    ).toContainEqual(expect.objectContaining({ status: 403 }));

    const down = freshConfig({ endpoint: 'http://127.0.0.1:9/' });
    const unreachable = await listVoices(down).catch((e: unknown) => e);
    expect((unreachable as SpeechError).message).toMatch(/^Amazon Polly is not reachable/);

    const slow = freshConfig({ timeoutMs: 300 });
    await listVoices(slow);
    polly.delayMs = 2000;
    const late = await synthesize(
      request({ voice_id: 'standard:polly:Hans', text: 'Hallo.', output_format: 'wav' }),
      slow,
    ).catch((e: unknown) => e);
    expect((late as SpeechError).message).toMatch(/did not answer in time/);
  });

  it('renders through a pool on the calling thread: workers never see the credentials', async () => {
    const pool = new SpeechPool({ size: 1, config: freshConfig() });
    try {
      const voices = (await pool.listVoices()).flatMap((l) => l.voices);
      expect(voices.some((v) => v.id === 'neural:polly:Joanna')).toBe(true);
      expect(voices.some((v) => v.id === 'standard:en-us')).toBe(true);
      const result = await pool.synthesize(
        request({
          engine: 'neural',
          voice_id: 'neural:polly:Lea',
          text: 'Bonjour à tous.',
          output_format: 'mp3',
          sample_rate: 24000,
        }),
      );
      expect(result.duration).toBeGreaterThan(0.4);
      expect(pool.busy).toBe(0);
      expect(pool.providers()).toEqual([
        { provider: 'polly', name: 'Amazon Polly', available: true, failures: 0 },
      ]);
    } finally {
      await pool.close();
    }
  });
});

/** What a call says, without its tags: SSML's text as Polly bills and speaks it. */
const spokenText = (ssml: string) =>
  ssml
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();

/**
 * The audio calls that say only words of `text`: a call of an earlier test (the slow provider's,
 * answered after its time-out) may still land while a later test runs.
 */
const callsOf = (text: string) => {
  const words = new Set(spokenText(text).split(/[^\p{L}\p{N}]+/u));
  return speechCalls().filter((call) =>
    spokenText(call.body?.Text ?? '')
      .split(/[^\p{L}\p{N}]+/u)
      .every((word) => words.has(word)),
  );
};

describe('whole SSML to Polly (issue 27)', () => {
  beforeAll(() => {
    config = freshConfig();
  });

  const SSML =
    '<speak>First we speak plainly. <prosody rate="slow">Then we slow down</prosody> for a while.<break time="700ms"/> A pause came before this one. And this ends <prosody volume="+6dB">loudly</prosody>.</speak>';
  const SPOKEN =
    'First we speak plainly. Then we slow down for a while. A pause came before this one. And this ends loudly.';

  for (const voice of ['standard:polly:Joanna', 'neural:polly:Joanna']) {
    it(`sends one voice's text in one call, its prosody and breaks in Polly SSML (${voice})`, async () => {
      const result = await synthesize(
        request({
          engine: voice.startsWith('neural') ? 'neural' : 'standard',
          voice_id: voice,
          text: SSML,
          output_format: 'wav',
          sample_rate: 24000,
        }),
        config,
      );
      const calls = callsOf(SSML);
      // One audio call (and its speech-marks twin): no lone "." and no sentence cut.
      expect(calls).toHaveLength(1);
      const sent = calls[0]?.body?.Text ?? '';
      expect(calls[0]?.status).toBe(200);
      expect(spokenText(sent)).toBe(SPOKEN);
      // Each change of prosody in Polly's <prosody>, the pause as Polly's <break>.
      expect(sent).toMatch(/<prosody rate="[1-9]\d%">Then we slow down<\/prosody>/);
      expect(sent).toMatch(/for a while\.<\/prosody> <break time="700ms"\/> <prosody/);
      expect(sent).toMatch(
        /And this ends<\/prosody> <prosody rate="100%" volume="\+6dB">loudly<\/prosody><prosody rate="100%">\.<\/prosody><\/speak>$/,
      );
      // Its speech marks are asked for the same SSML, once.
      const marksCalls = polly.calls.filter((call) => call.body?.OutputFormat === 'json');
      expect(marksCalls.filter((call) => call.body?.Text === sent)).toHaveLength(1);
      // Every word is marked once, in order (as the contract suite reads marks), and the pause
      // is in the audio.
      const words = speechMarks(SSML, result.marks).filter((mark) => mark.type === 'word');
      expect(words.map((mark) => mark.value)).toEqual(SPOKEN.replace(/[.,]/g, '').split(' '));
      for (let i = 1; i < words.length; i++) {
        expect(words[i]?.time).toBeGreaterThanOrEqual(words[i - 1]?.time ?? 0);
      }
      const sentences = result.marks.filter((mark) => mark.type === 'sentence');
      expect(sentences.map((mark) => mark.text)).toEqual([
        'First we speak plainly.',
        'Then we slow down for a while.',
        'A pause came before this one.',
        'And this ends loudly.',
      ]);
      const { samples, sampleRate } = decodeWav(result.audio);
      expect(Math.max(...innerSilences(samples, sampleRate))).toBeGreaterThan(0.6);
    }, 60_000);
  }

  it('splits a text over 3,000 billed characters at a sentence end, in as few calls as fit', async () => {
    const sentences = Array.from(
      { length: 60 },
      (_, i) => `Sentence number ${i + 1} is one of many in this long chapter of text.`,
    );
    const text = sentences.join(' ');
    expect(text.length).toBeGreaterThan(3000);
    expect(text.length).toBeLessThan(6000);
    const result = await synthesize(
      request({ voice_id: 'standard:polly:Joanna', text, output_format: 'wav' }),
      config,
    );
    const calls = callsOf(text);
    expect(calls).toHaveLength(2);
    const said = calls.map((call) => spokenText(call.body?.Text ?? ''));
    for (const [i, call] of calls.entries()) {
      expect(call.status).toBe(200);
      expect(said[i]?.length).toBeLessThanOrEqual(3000);
      // Whole sentences only: each call is a run of the sentences, cut after a full stop.
      expect(said[i]).toMatch(/^Sentence number \d+ .*\.$/);
    }
    expect(said.join(' ')).toBe(text);
    const words = result.marks.filter((mark) => mark.type === 'word');
    expect(words).toHaveLength(text.split(' ').length);
    expect(result.marks.filter((mark) => mark.type === 'sentence')).toHaveLength(60);
  }, 60_000);
});
