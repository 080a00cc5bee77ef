import { describe, expect, it } from 'vitest';
import { pcm16 } from './kernel.js';
import { resample, resampleTransient } from './resample.js';

/** The rounding pcm16 promises, one sample at a time in JavaScript (the loop it replaced). */
function expected(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] as number;
    const v = x < 0 ? x * 32768 : x * 32767;
    out[i] = v >= 32767 ? 32767 : v <= -32768 ? -32768 : Math.floor(v + 0.5);
  }
  return out;
}

/** The little-endian bytes read back as samples, whatever this machine's byte order. */
function values(bytes: Uint8Array): Int16Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Int16Array.from({ length: bytes.length / 2 }, (_, i) => view.getInt16(2 * i, true));
}

/** Deterministic values in -1.5..1.5 (beyond full scale too, for the clamp). */
function noise(length: number, seed = 7): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return (state / 2 ** 31) * 3 - 1.5;
  });
}

describe('pcm16 (SIMD)', () => {
  it('rounds, scales and clamps each sample as the JavaScript loop did', () => {
    // Halves of a step either side of zero and of full scale, infinities, NaN and signed zeros,
    // then noise; 1,003 samples, not a multiple of the eight converted at once.
    const edges = [0, -0, 0.5 / 32767, -0.5 / 32768, 1.5 / 32767, -1.5 / 32768, 1, -1];
    const more = [32766.5 / 32767, -32767.5 / 32768, 2, -2, Infinity, -Infinity, Number.NaN];
    const samples = new Float32Array([...edges, ...more, ...noise(988)]);
    const bytes = pcm16(samples);
    expect(bytes.length).toBe(2 * samples.length);
    expect(values(bytes)).toEqual(expected(samples));
    expect(values(pcm16(new Float32Array([1, -1, 0.5])))).toEqual(
      new Int16Array([32767, -32768, 16384]),
    );
  });

  it('converts the resampler’s output where it lies to the values of a copy of it', () => {
    const input = noise(4410 + 5, 3).map((x) => x / 2);
    for (const rate of [8000, 16000, 24000, 48000]) {
      const owned = resample(input, 22050, rate);
      const view = resampleTransient(input, 22050, rate);
      expect(view).toEqual(owned);
      const inPlace = values(pcm16(view));
      expect(inPlace).toEqual(expected(owned));
      // Not a constant or a copy of the input: the resampled signal, sample for sample.
      expect(inPlace).toEqual(values(pcm16(owned)));
      expect(inPlace.length).toBe(Math.round((input.length * rate) / 22050));
    }
  });

  it('resamples 16-bit samples as the floats they stand for (decision 056)', () => {
    const int16 = Int16Array.from(noise(4410 + 5, 5), (x) => Math.round(x * 20000));
    const floats = Float32Array.from(int16, (x) => x / 32768);
    // At espeak-ng's own rate too: converted into the kernel's memory, not resampled.
    for (const rate of [16000, 22050, 24000]) {
      const owned = resample(floats, 22050, rate);
      const view = resampleTransient(int16, 22050, rate);
      expect(view).toEqual(owned);
      expect(values(pcm16(view))).toEqual(expected(owned));
    }
    // The copying resampler answers 16-bit samples at the same rate as they are.
    expect(resample(int16, 22050, 22050)).toBe(int16);
  });
});
