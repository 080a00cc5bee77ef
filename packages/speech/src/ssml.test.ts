import { describe, expect, it } from 'vitest';
import { decodeWav, innerSilences, medianF0, rmsDb } from '../test/audio.js';
import { startFakeOpenAi } from '../test/providers/openai-server.js';
import { request } from '../test/request.js';
import { nativeAvailable } from './engines/espeak/backends.js';
import { SpeechError, SsmlError } from './errors.js';
import { synthesize, synthesizeStream } from './synthesize.js';
import { SPEECH_WARNING_CODES } from './warnings.js';

/**
 * The SSML corpus (docs/ssml.md), heard: each construct is rendered and its decoded audio
 * measured, on both espeak-ng backends.
 */

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

const backends = ['wasm', ...((await nativeAvailable()) ? ['native' as const] : [])] as const;

describe.each(backends)('SSML heard through the %s backend', (backend) => {
  const say = (text: string) => synthesize(request({ text }), { espeak: { backend } });
  const wav = async (text: string) => decodeWav((await say(text)).audio);
  const seconds = async (text: string) => (await say(text)).duration;
  /**
   * The same sound: the WebAssembly build is not bit-exact from one call to the next (its
   * state carries over, and its pitch estimate spreads by several per cent), so durations, levels
   * and pitch (within 10 %) are compared instead of bytes.
   */
  const sameSound = async (a: string, b: string) => {
    const [x, y] = [await wav(a), await wav(b)];
    const length = Math.abs(x.samples.length - y.samples.length) / y.samples.length;
    const level = Math.abs(rmsDb(x.samples) - rmsDb(y.samples));
    const f0 = medianF0(x.samples, x.sampleRate) / (medianF0(y.samples, y.sampleRate) || 1);
    return length < 0.02 && level < 0.5 && (f0 === 0 || Math.abs(f0 - 1) < 0.1);
  };
  const longestPause = async (text: string) => {
    const { samples, sampleRate } = await wav(text);
    return Math.max(0, ...innerSilences(samples, sampleRate));
  };

  it('reads an unsigned rate as a share of the default and a signed one as a change', async () => {
    const base = await seconds(SENTENCE);
    const ratio = async (rate: string) =>
      (await seconds(`<prosody rate="${rate}">${SENTENCE}</prosody>`)) / base;
    // Half speed lasts twice as long; double speed half as long (±15 %).
    expect(await ratio('50%')).toBeGreaterThan(2 * 0.85);
    expect(await ratio('50%')).toBeLessThan(2 * 1.15);
    expect(await ratio('200%')).toBeGreaterThan(0.5 * 0.85);
    expect(await ratio('200%')).toBeLessThan(0.5 * 1.15);
    // +100 % doubles the rate, as the editor's slider does.
    expect(await ratio('+100%')).toBeGreaterThan(0.5 * 0.85);
    expect(await ratio('+100%')).toBeLessThan(0.5 * 1.15);
  });

  it('reads an unsigned pitch and volume as a share of the default', async () => {
    const base = await wav(SENTENCE);
    const higher = await wav(`<prosody pitch="120%">${SENTENCE}</prosody>`);
    const f0 =
      medianF0(higher.samples, higher.sampleRate) / medianF0(base.samples, base.sampleRate);
    expect(f0).toBeGreaterThan(1.2 * 0.94);
    expect(f0).toBeLessThan(1.2 * 1.06);
    const half = await wav(`<prosody volume="50%">${SENTENCE}</prosody>`);
    expect(rmsDb(half.samples) - rmsDb(base.samples)).toBeCloseTo(-6, 0);
    const louder = await wav(`<prosody volume="-6dB">${SENTENCE}</prosody>`);
    expect(rmsDb(louder.samples) - rmsDb(base.samples)).toBeCloseTo(-6, 0);
  });

  it('speaks CDATA and skips comments and processing instructions', async () => {
    const plain = await say('Hello there & everywhere');
    const marked = await say(
      '<speak>Hello <!-- not read --><?parla-hint x?><![CDATA[there & everywhere]]></speak>',
    );
    expect(Math.abs(marked.duration - plain.duration) / plain.duration).toBeLessThan(0.1);
    expect(marked.warnings).toEqual([]);
  });

  it('pauses at least 0.2 s after a sentence and 0.4 s after a paragraph', async () => {
    expect(await longestPause('<s>One</s><s>Two</s>')).toBeGreaterThanOrEqual(0.2 * 0.95);
    expect(await longestPause('<p>One</p><p>Two</p>')).toBeGreaterThanOrEqual(0.4 * 0.95);
    // A longer break stays as it is; nothing is added after the last paragraph.
    const long = await longestPause('<p>One</p><break time="1s"/><p>Two</p>');
    expect(long).toBeGreaterThan(0.85);
    expect(long).toBeLessThan(1.15);
    expect(await seconds('<p>One</p>')).toBeCloseTo(await seconds('One'), 2);
  });

  it('speaks <phoneme> where the backend reads phonemes, and its text otherwise', async () => {
    const text = await say('supercalifragilistic');
    const phoneme = await say('<phoneme alphabet="ipa" ph="ˈhaɪ">supercalifragilistic</phoneme>');
    const sampa = await say(
      '<phoneme alphabet="x-sampa" ph=\'"haI\'>supercalifragilistic</phoneme>',
    );
    if (backend === 'native') {
      // "hi" is a fraction of the long word.
      expect(phoneme.duration).toBeLessThan(0.4 * text.duration);
      expect(sampa.duration).toBeCloseTo(phoneme.duration, 2);
      expect(phoneme.warnings).toEqual([]);
      // Only <phoneme> gives phonemes: `[[…]]` typed in the text is read as it is written.
      const typed = await say("[[h'aI]]");
      expect(typed.duration).toBeGreaterThan(2 * phoneme.duration);
    } else {
      expect(phoneme.duration).toBeCloseTo(text.duration, 2);
      expect(phoneme.warnings).toEqual([
        {
          code: 'phoneme_not_spoken',
          message:
            '<phoneme alphabet="ipa" ph="ˈhaɪ">: the WebAssembly build of espeak-ng cannot read phonemes; "supercalifragilistic" is read instead',
          line: 1,
          column: 1,
        },
      ]);
    }
  });

  it('says a pronunciation of 400 phonemes in one word (it crashed espeak-ng), and refuses a ph past the limit', async () => {
    const ph = 'tɑ'.repeat(200);
    const result = await say(`<phoneme alphabet="ipa" ph="${ph}">ta</phoneme>`);
    const { samples, sampleRate } = decodeWav(result.audio);
    expect(rmsDb(samples)).toBeGreaterThan(-45);
    // The native program says the 400 phonemes (cut in words of 40, about 1.3 s unstressed),
    // more than a second; the WebAssembly build reads the text instead.
    if (backend === 'native') {
      expect(samples.length / sampleRate).toBeGreaterThan(1);
    }
    const refused = await say(`<phoneme alphabet="ipa" ph="${'t'.repeat(501)}">t</phoneme>`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SsmlError);
    expect((refused as SsmlError).reason).toBe(
      '<phoneme> ph has 501 characters; at most 500 are accepted (one pronunciation, not a text)',
    );
  });

  it('switches language with <lang> and voice with <voice gender>', async () => {
    const french = '<lang xml:lang="fr-FR">Bonjour</lang>';
    expect(await sameSound(french, 'Bonjour')).toBe(false);
    expect(await sameSound(french, '<voice name="standard:fr-fr">Bonjour</voice>')).toBe(true);
    // The same language (xml:lang="en" on an American voice) keeps the voice.
    expect(await sameSound('<speak xml:lang="en">Bonjour</speak>', 'Bonjour')).toBe(true);
    const male = await wav(SENTENCE);
    const female = await wav(`<voice gender="female">${SENTENCE}</voice>`);
    expect(
      medianF0(female.samples, female.sampleRate) / medianF0(male.samples, male.sampleRate),
    ).toBeGreaterThan(1.3);
  });

  it('falls back from a voice name it does not have, with a warning (priorityselect)', async () => {
    const joanna = '<voice name="Joanna" gender="female">Hello there</voice>';
    expect(await sameSound(joanna, '<voice gender="female">Hello there</voice>')).toBe(true);
    const result = await say(joanna);
    expect(result.warnings).toEqual([
      {
        code: 'voice_not_found',
        message:
          '<voice name="Joanna"> is not a Parla voice; the voice is chosen by language and gender instead',
        line: 1,
        column: 1,
      },
    ]);
  });

  it('reports <mark> where it is heard, between the words around it', async () => {
    const result = await say('One two <mark name="middle"/> three four.');
    const mark = result.marks.find((m) => m.type === 'mark');
    expect(mark).toMatchObject({ text: 'middle' });
    expect(mark?.start).toBe(mark?.end);
    const words = result.marks.filter((m) => m.type === 'word');
    if (backend === 'wasm') {
      const two = words.find((m) => m.text === 'two');
      const three = words.find((m) => m.text === 'three');
      expect(mark?.start).toBeGreaterThanOrEqual(two?.start ?? Number.POSITIVE_INFINITY);
      expect(mark?.start).toBeLessThanOrEqual(three?.start ?? 0);
    } else {
      expect(mark?.start).toBeGreaterThan(0.2 * result.duration);
      expect(mark?.start).toBeLessThan(0.8 * result.duration);
    }
    // A mark costs no time.
    expect(result.duration).toBeCloseTo(await seconds('One two three four.'), 1);
  });

  it("renders Polly's whisper, domain and breath and Azure's styles as Parla's effects", async () => {
    // Whispering is noise, different at each call: the same length and level.
    const polly = await wav('<amazon:effect name="whispered">Hello there</amazon:effect>');
    const ours = await wav('<effect name="whispered">Hello there</effect>');
    expect(polly.samples.length / ours.samples.length).toBeCloseTo(1, 1);
    expect(Math.abs(rmsDb(polly.samples) - rmsDb(ours.samples))).toBeLessThan(1.5);
    expect(
      await sameSound(
        '<amazon:domain name="news">Hello there</amazon:domain>',
        '<effect name="news">Hello there</effect>',
      ),
    ).toBe(true);
    expect(
      await sameSound(
        '<mstts:express-as style="cheerful">Hello there</mstts:express-as>',
        '<effect name="happy">Hello there</effect>',
      ),
    ).toBe(true);
    expect(
      await sameSound(
        '<mstts:express-as style="cheerful">Hello there</mstts:express-as>',
        'Hello there',
      ),
    ).toBe(false);
    // A breath is 0.35 s of breath noise and a 0.08 s rest.
    const breath = (await seconds('Hello <amazon:breath/> there')) - (await seconds('Hello there'));
    expect(breath).toBeGreaterThan(0.3);
    expect(breath).toBeLessThan(0.6);
    const drc = await say('<amazon:effect name="drc">Hello there</amazon:effect>');
    expect(
      await sameSound('<amazon:effect name="drc">Hello there</amazon:effect>', 'Hello there'),
    ).toBe(true);
    expect(drc.warnings).toEqual([
      {
        code: 'ignored_markup',
        message: '<amazon:effect name="drc"> is ignored',
        line: 1,
        column: 1,
      },
    ]);
  });
});

describe('warnings (docs/ssml.md, issue 27 item 3)', () => {
  it('are values with a code, a message and where the markup was typed', async () => {
    const text =
      'Hello there.\n  Say <phoneme alphabet="ipa" ph="ˈhaɪ">hi</phoneme> to <mstts:silence type="x">them</mstts:silence>,\n<prosody range="x-high">twice</prosody>, <phoneme alphabet="x-amazon-pinyin" ph="bo2">博</phoneme>.';
    const result = await synthesize(request({ text }), { espeak: { backend: 'wasm' } });
    expect(result.warnings).toEqual([
      {
        code: 'unsupported_element',
        message: '<mstts:silence> is not supported; it is ignored and its text is read',
        line: 2,
        column: 57,
      },
      { code: 'ignored_markup', message: '<prosody range> is ignored', line: 3, column: 1 },
      {
        code: 'phoneme_not_spoken',
        message: 'phoneme alphabet "x-amazon-pinyin" is not ipa or x-sampa; its text is read',
        line: 3,
        column: 42,
      },
      {
        code: 'phoneme_not_spoken',
        message:
          '<phoneme alphabet="ipa" ph="ˈhaɪ">: the WebAssembly build of espeak-ng cannot read phonemes; "hi" is read instead',
        line: 2,
        column: 7,
      },
    ]);
    // Every code is one of the documented ones, and the audio is all there.
    for (const warning of result.warnings) expect(SPEECH_WARNING_CODES).toContain(warning.code);
    expect(decodeWav(result.audio).samples.length).toBeGreaterThan(result.sampleRate);
  });

  it("places what a voice lacks where it was asked, and the request's own effect nowhere", async () => {
    const openai = await startFakeOpenAi();
    try {
      const result = await synthesize(
        {
          voice: 'neural:openai:nova',
          text: 'Hello\n<emphasis>there</emphasis>, <effect name="happy">you</effect>.',
          format: 'wav',
          sampleRate: 16000,
          effect: 'calm',
        },
        { espeak: { backend: 'wasm' }, openai: { url: openai.url, key: openai.key } },
      );
      expect(result.warnings.map(({ code, line, column }) => ({ code, line, column }))).toEqual([
        { code: 'effect_not_available', line: null, column: null },
        { code: 'emphasis_not_rendered', line: 2, column: 1 },
        { code: 'effect_not_available', line: 2, column: 29 },
      ]);
    } finally {
      await openai.close();
    }
  });
});

describe('warnings in a stream', () => {
  it('come with the chunk that is sent after them, once', async () => {
    const chunks = [];
    for await (const chunk of synthesizeStream(
      request({ text: '<amazon:effect name="drc">One.</amazon:effect> Two.' }),
      { espeak: { backend: 'wasm' } },
    )) {
      chunks.push(chunk);
    }
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]?.warnings).toEqual([
      {
        code: 'ignored_markup',
        message: '<amazon:effect name="drc"> is ignored',
        line: 1,
        column: 1,
      },
    ]);
    expect(chunks.slice(1).flatMap((chunk) => chunk.warnings)).toEqual([]);
  });
});

describe('SSML refused or bounded', () => {
  it('refuses <audio> with its position', async () => {
    const error = await synthesize(request({ text: 'Hi <audio src="x.mp3"/>' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SsmlError);
    expect((error as SsmlError).message).toMatch(/^1:4: <audio> is not supported/);
  });

  it('reads a long say-as number digit by digit', async () => {
    const digits = Array.from({ length: 40 }, (_, i) => (i * 7 + 3) % 10).join('');
    const result = await synthesize(
      request({ text: `<say-as interpret-as="cardinal">${digits}</say-as>` }),
      { espeak: { backend: 'wasm' } },
    );
    const words = result.marks.filter((m) => m.type === 'word').map((m) => m.text);
    expect(words.slice(0, 4)).toEqual(['three', 'zero', 'seven', 'four']);
    expect(words).toHaveLength(40);
  });

  it('refuses a 940-digit cardinal in 1,000 characters before rendering it', async () => {
    const digits = Array.from({ length: 940 }, (_, i) => (i * 7 + 3) % 10).join('');
    const error = await synthesize(
      request({ text: `<say-as interpret-as="cardinal">${digits}</say-as>` }),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringMatching(/a text of 981 characters may make at most 147 s\./),
    });
  });

  it('refuses a text whose audio would outlast what its length allows, naming the limit', async () => {
    const text = `<prosody rate="20%"><say-as interpret-as="digits">${'9'.repeat(600)}</say-as></prosody>`;
    const error = await synthesize(request({ text })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechError);
    expect(error).toMatchObject({ code: 'limit_exceeded' });
    expect((error as Error).message).toMatch(
      /^This text would make about \d+ s of audio \(pauses included\); a text of 669 characters may make at most 100 s\./,
    );
  });
});
