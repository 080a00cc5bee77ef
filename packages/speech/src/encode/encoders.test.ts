import libsamplerate from '@alexanderolsen/libsamplerate-js';
import { SAMPLE_RATES } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { decode, toneShare } from '../../test/audio.js';
import { pcm16 } from '../dsp/kernel.js';
import { resample } from '../dsp/resample.js';
import { createStreamEncoder, wavHeader } from './encoders.js';
import { nativeMp3Available } from './lame.js';
import { nativeOggAvailable } from './vorbis.js';

/** Whether each format's system library is installed here (CI may have neither). */
const NATIVE = { mp3: nativeMp3Available(), ogg: nativeOggAvailable() };

/** 0.5 s of a 220 Hz tone at 22,050 Hz, the rate espeak-ng produces. */
function tone(): Float32Array {
  const out = new Float32Array(11025);
  for (let i = 0; i < out.length; i++) out[i] = 0.5 * Math.sin((2 * Math.PI * 220 * i) / 22050);
  return out;
}

/** One second of a voice-like sound: harmonics of a gliding 120-180 Hz tone, in syllables. */
function speechLike(): Float32Array {
  const out = new Float32Array(22050);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    phase += (2 * Math.PI * (120 + 60 * (i / out.length))) / 22050;
    let x = 0;
    for (let h = 1; h < 20; h++) x += Math.sin(h * phase) / h;
    out[i] = 0.2 * x * Math.abs(Math.sin((Math.PI * i) / 4410));
  }
  return out;
}

describe('encoders and resampler', () => {
  it.each(
    SAMPLE_RATES.flatMap((rate) => (['wav', 'mp3', 'ogg'] as const).map((f) => [f, rate] as const)),
  )('%s at %i Hz decodes to the same rate, length and pitch', async (format, rate) => {
    await checkEncoded(format, rate, true);
  });

  // Where the libraries are installed the test above encodes through them: the WebAssembly
  // builds too.
  it.each(SAMPLE_RATES.flatMap((rate) => (['mp3', 'ogg'] as const).map((f) => [f, rate] as const)))(
    '%s at %i Hz through WebAssembly decodes the same way',
    async (format, rate) => {
      await checkEncoded(format, rate, false);
    },
  );

  /** Speech-like sound at `rate`, encoded in pieces as the encode stage feeds it, decoded. */
  async function roundTrip(
    format: 'mp3' | 'ogg',
    rate: number,
    native: boolean,
    pcm: Float32Array,
  ) {
    const encoder = await createStreamEncoder(format, rate, { native });
    const third = Math.floor(pcm.length / 3);
    const parts = [
      encoder.encode(pcm.subarray(0, third)),
      encoder.encode(pcm.subarray(third)),
      encoder.finish(),
    ];
    return decode(format, new Uint8Array(parts.flatMap((part) => [...part])));
  }

  /** Signal-to-noise ratio of `decoded` against `reference`, in dB. */
  function snr(reference: Float32Array, decoded: Float32Array): number {
    let signal = 0;
    let difference = 0;
    for (let i = 0; i < reference.length; i++) {
      signal += (reference[i] ?? 0) ** 2;
      difference += ((decoded[i] ?? 0) - (reference[i] ?? 0)) ** 2;
    }
    return 10 * Math.log10(signal / difference);
  }

  describe.each(['mp3', 'ogg'] as const)('%s', (format) => {
    it.skipIf(!NATIVE[format]).each(SAMPLE_RATES)(
      'at %i Hz: the system library and the WebAssembly build decode to the same audio',
      async (rate) => {
        const pcm = resample(speechLike(), 22050, rate);
        const [native, wasm] = await Promise.all([
          roundTrip(format, rate, true, pcm),
          roundTrip(format, rate, false, pcm),
        ]);
        expect(native.sampleRate).toBe(rate);
        expect(native.samples.length).toBe(wasm.samples.length);
        expect(native.samples.length / rate).toBeGreaterThan(0.99);
        // The same encoder compiled twice: what differs is floating-point rounding. Debian's
        // LAME 3.100 gives the same samples as the package's build today, and libvorbis 1.3.7
        // too up to 24 kHz (at 44.1 and 48 kHz samples differ by up to 0.005); another version
        // may round differently, not more.
        expect(snr(wasm.samples, native.samples)).toBeGreaterThan(30);
      },
    );
  });

  // Vorbis keeps the stream's exact length (its granule positions), so the decoded samples line
  // up with the input: compare them, through the library where it is installed and through
  // WebAssembly. Measured at quality 4: 36-40 dB on the tone, 26-29 dB on the speech-like sound.
  it.each(
    SAMPLE_RATES.flatMap((rate) =>
      [true, false].flatMap((native) =>
        (['tone', 'speech'] as const).map((sound) => [rate, native, sound] as const),
      ),
    ),
  )('ogg at %i Hz (system library: %s) decodes to its input: %s', async (rate, native, sound) => {
    const pcm = resample(sound === 'tone' ? tone() : speechLike(), 22050, rate);
    const decoded = await roundTrip('ogg', rate, native, pcm);
    expect(decoded.sampleRate).toBe(rate);
    expect(decoded.samples.length).toBe(pcm.length);
    expect(snr(pcm, decoded.samples)).toBeGreaterThan(sound === 'tone' ? 30 : 20);
  });

  async function checkEncoded(format: 'wav' | 'mp3' | 'ogg', rate: number, native: boolean) {
    const pcm = resample(tone(), 22050, rate);
    expect(pcm.length).toBe(Math.round(0.5 * rate));
    let bytes: Uint8Array;
    if (format === 'wav') {
      // A whole file, as the encode stage writes it: the header with its exact sizes.
      const body = pcm16(pcm);
      bytes = new Uint8Array([...wavHeader(rate, body.length), ...body]);
    } else {
      const encoder = await createStreamEncoder(format, rate, { native });
      bytes = new Uint8Array([...encoder.encode(pcm), ...encoder.finish()]);
    }
    const decoded = await decode(format, bytes);
    expect(decoded.sampleRate).toBe(rate);
    const seconds = decoded.samples.length / rate;
    expect(seconds).toBeGreaterThanOrEqual(0.499);
    expect(seconds).toBeLessThan(format === 'mp3' ? 0.5 + 3500 / rate : 0.501);
    // The tone survives: most of the energy is still at 220 Hz (mp3 adds silence before it).
    expect(toneShare(decoded.samples, rate, 220)).toBeGreaterThan(0.7);
  }

  it.each(SAMPLE_RATES)('resamples like libsamplerate (best quality) to %i Hz', async (rate) => {
    // A speech-like signal: harmonics of a gliding 120-180 Hz voice up to 5 kHz, kept inside
    // both filters' pass band (the two differ only in their transition bands).
    const top = Math.min(5000, 0.85 * (Math.min(rate, 22050) / 2));
    const input = new Float32Array(22050);
    let phase = 0;
    for (let i = 0; i < input.length; i++) {
      phase += (2 * Math.PI * (120 + 60 * (i / input.length))) / 22050;
      let x = 0;
      for (let h = 1; h * 180 < top; h++) x += Math.sin(h * phase) / h;
      input[i] = 0.2 * x;
    }
    const ours = resample(input, 22050, rate);
    const reference = await libsamplerate.create(1, 22050, rate, {
      converterType: libsamplerate.ConverterType.SRC_SINC_BEST_QUALITY,
    });
    const theirs = reference.simple(input);
    reference.destroy();
    // Compare away from the edges, where each treats the outside differently.
    const edge = Math.round(0.05 * rate);
    let signal = 0;
    let noise = 0;
    for (let i = edge; i < Math.min(ours.length, theirs.length) - edge; i++) {
      signal += (theirs[i] ?? 0) ** 2;
      noise += ((ours[i] ?? 0) - (theirs[i] ?? 0)) ** 2;
    }
    expect(Math.abs(ours.length - theirs.length)).toBeLessThanOrEqual(1);
    expect(10 * Math.log10(signal / noise)).toBeGreaterThan(50);
  });

  it('resamples each piece as if alone, whatever the pieces before it', () => {
    const short = tone().subarray(100, 110);
    const before = resample(short, 22050, 48000);
    // Three minutes: the kernel's memory grows, and leaves sound where the short piece's
    // margins lie next time.
    const long = new Float32Array(22050 * 180).fill(0.5);
    const grown = resample(long, 22050, 48000);
    expect(grown.length).toBe(48000 * 180);
    expect(grown[grown.length / 2]).toBeCloseTo(0.5, 5);
    const after = resample(short, 22050, 48000);
    expect(after.length).toBe(Math.round((10 * 48000) / 22050));
    expect(Array.from(after)).toEqual(Array.from(before));
    expect(resample(new Float32Array([1]), 22050, 44100)).toHaveLength(2);
  });

  it('resamples without aliasing: a tone above the new Nyquist frequency disappears', async () => {
    const high = new Float32Array(22050);
    for (let i = 0; i < high.length; i++)
      high[i] = 0.5 * Math.sin((2 * Math.PI * 6000 * i) / 22050);
    const down = resample(high, 22050, 8000);
    // Linear interpolation would fold 6 kHz to 2 kHz at nearly full level.
    const rms = Math.sqrt(down.reduce((s, x) => s + x * x, 0) / down.length);
    expect(rms).toBeLessThan(0.01);
  });
});
