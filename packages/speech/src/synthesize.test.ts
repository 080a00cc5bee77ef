import { describe, expect, it } from 'vitest';
import { decode, decodeWav, innerSilences, medianF0, toneShare } from '../test/audio.js';
import { request } from '../test/request.js';
import { applyGain, type Pcm, softLimit } from './dsp/dsp.js';
import { pcm16 } from './dsp/kernel.js';
import { resample } from './dsp/resample.js';
import { createStreamEncoder } from './encode/encoders.js';
import { nativeAvailable } from './engines/espeak/backends.js';
import { SpeechError, SsmlError } from './errors.js';
import { createSentenceCache, type SentenceCache } from './stages/sentence-cache.js';
import { synthesize, synthesizeStream } from './synthesize.js';

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

// Both backends pass the same tests; the native one only where espeak-ng is installed.
const backends = ['wasm', ...((await nativeAvailable()) ? ['native' as const] : [])] as const;

describe.each(backends)('synthesize with the %s backend', (backend) => {
  const say = (overrides: Parameters<typeof request>[0]) =>
    synthesize(request(overrides), { espeak: { backend } });

  it.each([
    ['wav', 16000],
    ['mp3', 24000],
    ['mp3', 22050],
    ['mp3', 8000],
    ['ogg', 16000],
    ['ogg', 24000],
  ] as const)('encodes %s at %i Hz with its true duration', async (format, rate) => {
    const result = await say({ text: 'Hello there.', output_format: format, sample_rate: rate });
    expect(result.sampleRate).toBe(rate);
    expect(result.mimeType).toBe({ wav: 'audio/wav', mp3: 'audio/mpeg', ogg: 'audio/ogg' }[format]);
    const decoded = await decode(format, result.audio);
    expect(decoded.sampleRate).toBe(rate);
    const decodedSeconds = decoded.samples.length / decoded.sampleRate;
    expect(result.duration).toBeGreaterThan(0.5);
    if (format === 'mp3') {
      // The decoder also returns LAME's delay (1105 samples) and the last frame's padding.
      const frame = rate >= 32000 ? 1152 : 576;
      expect(decodedSeconds - result.duration).toBeGreaterThanOrEqual(0);
      expect(decodedSeconds - result.duration).toBeLessThan((1105 + 2 * frame) / rate);
      // Constant bit rate: a player's size-based duration is the decoded one, within a frame.
      const kbps = { 24000: 64, 22050: 64, 8000: 24 }[rate as 24000 | 22050 | 8000];
      const sizeSeconds = (result.audio.length * 8) / (kbps * 1000);
      expect(Math.abs(sizeSeconds - decodedSeconds)).toBeLessThan((2 * frame) / rate);
    } else {
      expect(Math.abs(decodedSeconds - result.duration)).toBeLessThan(0.01);
    }
  });

  // espeak-ng's 16-bit samples reach the resampler as they are (decision 056) and the
  // resampled PCM reaches the encoder in the resampler's memory, never copied
  // (stages/post-process.ts): what it makes is compared with the copying path's, done here by
  // hand from the same rendering at espeak-ng's own rate, converted to floats first as the
  // engine did (one sentence: one piece resampled; espeak-ng varies from one rendering to the
  // next, so the sentence cache gives the same one).
  describe('encodes the resampled PCM as the copying path did', () => {
    const text = 'This one sentence is long enough to be sent ahead in two pieces when streamed.';
    // The sentence as rendered, kept when the cache stores it.
    let rendered: Pcm | undefined;
    const cache = createSentenceCache();
    const sentenceCache: SentenceCache = {
      get: (key) => cache.get(key),
      set: (key, value) => {
        rendered = value.samples.slice();
        cache.set(key, value);
      },
    };
    const cached = (overrides: Parameters<typeof request>[0]) =>
      synthesize(request({ text, ...overrides }), { espeak: { backend }, sentenceCache });
    /** The rendering at 22,050 Hz through the copying path to `rate`. */
    const copied = async (rate: number, volume: number) => {
      if (!rendered) await cached({});
      // Carried as espeak-ng made it, not converted by the engine.
      expect(rendered).toBeInstanceOf(Int16Array);
      const floats = Float32Array.from(rendered ?? [], (x) => x / 32768);
      const pcm = resample(floats, 22050, rate);
      applyGain(pcm, volume);
      if (volume > 0) softLimit(pcm);
      return pcm;
    };
    /** 16-bit samples of a WAV file's floats (exact: each is a 16-bit value over 32768). */
    const int16 = (samples: Float32Array) => Int16Array.from(samples, (x) => x * 32768);
    const bytesAsInt16 = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return Int16Array.from({ length: bytes.length / 2 }, (_, i) => view.getInt16(2 * i, true));
    };
    /** Both lengths and how many samples differ (a count, not a diff of thousands of them). */
    const compared = (made: ArrayLike<number>, expected: ArrayLike<number>) => {
      let differing = 0;
      for (let i = 0; i < Math.max(made.length, expected.length); i++) {
        if (made[i] !== expected[i]) differing++;
      }
      return { lengths: [made.length, expected.length], differing };
    };
    const same = (length: number) => ({ lengths: [length, length], differing: 0 });

    it.each([
      [16000, 0],
      [16000, 6],
      // espeak-ng's own rate: no resampling, the samples go to floats in the kernel's memory.
      [22050, 0],
    ] as const)('WAV at %i Hz, volume %i dB: the same samples', async (rate, volume) => {
      const made = await cached({ sample_rate: rate, master_volume: volume });
      const expected = bytesAsInt16(pcm16(await copied(rate, volume)));
      expect(expected.length).toBeGreaterThan(rate);
      // Exactly the copying path's samples: not scaled, shifted or cut.
      expect(compared(int16(decodeWav(made.audio).samples), expected)).toEqual(
        same(expected.length),
      );
    });

    it('WAV at 16 kHz streamed (the first second sent ahead): the same samples', async () => {
      const chunks: Uint8Array[] = [];
      for await (const chunk of synthesizeStream(request({ text, sample_rate: 16000 }), {
        espeak: { backend },
        sentenceCache,
      })) {
        chunks.push(chunk.audio);
      }
      expect(chunks.length).toBeGreaterThan(1);
      const streamed = Buffer.concat(chunks).subarray(44);
      const expected = bytesAsInt16(pcm16(await copied(16000, 0)));
      expect(compared(bytesAsInt16(streamed), expected)).toEqual(same(expected.length));
    });

    it('Ogg Vorbis at 24 kHz: the same decoded audio', async () => {
      const made = await decode(
        'ogg',
        (await cached({ output_format: 'ogg', sample_rate: 24000 })).audio,
      );
      const encoder = await createStreamEncoder('ogg', 24000);
      const pcm = await copied(24000, 0);
      const bytes = Buffer.concat([encoder.encode(pcm), encoder.finish()]);
      const expected = await decode('ogg', bytes);
      expect(compared(made.samples, expected.samples)).toEqual(same(pcm.length));
    });
  });

  // A break's silence and the volume's RMS change are in the engine contract
  // (engines/contract.test.ts).
  it('adds 0.2 s of silence per new line (±15 %)', async () => {
    const result = await say({ text: 'Hello there\ngeneral Kenobi' });
    const { samples, sampleRate } = decodeWav(result.audio);
    const longest = Math.max(...innerSilences(samples, sampleRate));
    expect(longest).toBeGreaterThan(0.2 * 0.85);
    expect(longest).toBeLessThan(0.2 * 1.15);
    const twoLines = decodeWav((await say({ text: 'Hello there\n\ngeneral Kenobi' })).audio);
    const longer = Math.max(...innerSilences(twoLines.samples, twoLines.sampleRate));
    expect(longer).toBeGreaterThan(0.4 * 0.85);
    expect(longer).toBeLessThan(0.4 * 1.15);
  });

  it('shifts the fundamental frequency by the master pitch', async () => {
    const f0 = async (pitch: number) => {
      const { samples, sampleRate } = decodeWav(
        (await say({ text: SENTENCE, master_pitch: pitch })).audio,
      );
      return medianF0(samples, sampleRate);
    };
    const base = await f0(0);
    // +60 % is three semitones up (×1.19), -60 % three down (×0.84).
    expect((await f0(60)) / base).toBeGreaterThan(1.19 * 0.94);
    expect((await f0(60)) / base).toBeLessThan(1.19 * 1.06);
    expect((await f0(-60)) / base).toBeGreaterThan(0.84 * 0.94);
    expect((await f0(-60)) / base).toBeLessThan(0.84 * 1.06);
  });

  it('changes the duration by the master speed', async () => {
    const seconds = async (speed: number) =>
      (await say({ text: SENTENCE, master_speed: speed })).duration;
    const base = await seconds(0);
    // +100 % doubles the rate, -50 % divides it by √2.
    expect((await seconds(100)) / base).toBeGreaterThan(0.5 * 0.85);
    expect((await seconds(100)) / base).toBeLessThan(0.5 * 1.15);
    expect((await seconds(-50)) / base).toBeGreaterThan(Math.SQRT2 * 0.85);
    expect((await seconds(-50)) / base).toBeLessThan(Math.SQRT2 * 1.15);
  });

  it('bleeps an expletive with a 1 kHz tone', async () => {
    const result = await say({
      text: '<speak><say-as interpret-as="expletive">darn</say-as></speak>',
    });
    const { samples, sampleRate } = decodeWav(result.audio);
    expect(toneShare(samples, sampleRate, 1000)).toBeGreaterThan(0.8);
  });

  it('answers sentence marks, and word marks where the backend reports them', async () => {
    const result = await say({ text: 'First sentence here. Second one.' });
    const sentences = result.marks.filter((m) => m.type === 'sentence');
    expect(sentences.map((m) => m.text)).toEqual(['First sentence here.', 'Second one.']);
    expect(sentences[1]?.start).toBeCloseTo(sentences[0]?.end ?? -1, 5);
    expect(sentences[1]?.end).toBeCloseTo(result.duration, 5);
    const words = result.marks.filter((m) => m.type === 'word').map((m) => m.text);
    if (backend === 'wasm') expect(words).toEqual(['First', 'sentence', 'here', 'Second', 'one']);
  });

  it('switches voice inside a text', async () => {
    const plain = await say({ text: 'Bonjour' });
    const switched = await say({ text: '<voice name="standard:fr-fr">Bonjour</voice>' });
    expect(Buffer.from(switched.audio).equals(Buffer.from(plain.audio))).toBe(false);
  });
});

describe('synthesize errors', () => {
  it('refuses an unknown voice', async () => {
    await expect(synthesize(request({ voice_id: 'standard:xx-zz' }))).rejects.toThrow(
      new SpeechError('unknown_voice', 'Unknown voice "standard:xx-zz".'),
    );
  });

  it('refuses a bad field with a bad_input error naming it', async () => {
    await expect(synthesize({ ...request(), speed: 300 })).rejects.toMatchObject({
      code: 'bad_input',
      message: 'speed: Speed must be between -100 % and 100 %.',
    });
    await expect(synthesize({ ...request(), sampleRate: 12345 as 8000 })).rejects.toMatchObject({
      code: 'bad_input',
    });
  });

  it('reports malformed SSML with its position', async () => {
    const error = await synthesize(request({ text: '<speak>\n<emphasis>x</speak>' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SsmlError);
    expect((error as SsmlError).message).toMatch(/<emphasis> opened at 2:1 is not closed/);
  });
});

describe('synthesizeStream', () => {
  it('yields one chunk per sentence whose bytes make the whole file', async () => {
    const text = 'One. Two. Three.';
    const chunks = [];
    for await (const chunk of synthesizeStream(
      request({ text, output_format: 'ogg', sample_rate: 16000 }),
      { espeak: { backend: 'wasm' } },
    )) {
      chunks.push(chunk);
    }
    expect(chunks.map((c) => c.last)).toEqual([false, false, true]);
    const whole = Buffer.concat(chunks.map((c) => c.audio));
    const decoded = await decode('ogg', whole);
    const total = chunks.reduce((sum, c) => sum + c.duration, 0);
    expect(Math.abs(decoded.samples.length / 16000 - total)).toBeLessThan(0.01);
  });

  it('streams WAV as a header with placeholder sizes followed by PCM', async () => {
    const chunks = [];
    for await (const chunk of synthesizeStream(request({ text: 'One. Two.' }), {
      espeak: { backend: 'wasm' },
    })) {
      chunks.push(chunk);
    }
    const first = chunks[0]?.audio ?? new Uint8Array(0);
    expect(Buffer.from(first.subarray(0, 4)).toString()).toBe('RIFF');
    const total = chunks.reduce((sum, c) => sum + c.audio.length, 0);
    expect(total - 44).toBe(Math.round(chunks.reduce((s, c) => s + c.duration, 0) * 16000) * 2);
  });

  it('sends the first second of a long first sentence ahead, with the marks that start in it', async () => {
    const text = 'This first sentence is long enough to take a few seconds to say. Then one more.';
    const settings = request({ text, output_format: 'mp3', sample_rate: 24000 });
    const chunks = [];
    for await (const chunk of synthesizeStream(settings, { espeak: { backend: 'wasm' } }))
      chunks.push(chunk);
    expect(chunks).toHaveLength(3);
    expect(chunks[0]?.duration).toBe(1);
    expect(chunks[1]?.start).toBe(1);
    for (const chunk of chunks) {
      for (const mark of chunk.marks) {
        expect(mark.start).toBeGreaterThanOrEqual(chunk.start);
        expect(mark.start).toBeLessThan(chunk.start + chunk.duration);
      }
    }
    // Together the chunks carry the marks of the whole file and make one playable file.
    const whole = await synthesize(settings, { espeak: { backend: 'wasm' } });
    const words = (marks: { type: string; text: string }[]) =>
      marks.map((mark) => `${mark.type}:${mark.text}`);
    expect(words(chunks.flatMap((chunk) => chunk.marks))).toEqual(words(whole.marks));
    const decoded = await decode('mp3', Buffer.concat(chunks.map((chunk) => chunk.audio)));
    const total = chunks.reduce((sum, chunk) => sum + chunk.duration, 0);
    // mp3 adds the encoder's delay and pads its last frame.
    expect(decoded.samples.length / 24000 - total).toBeGreaterThanOrEqual(0);
    expect(decoded.samples.length / 24000 - total).toBeLessThan(0.15);
  });
});
