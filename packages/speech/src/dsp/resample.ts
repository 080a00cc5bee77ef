import { type Pcm, widen } from './dsp.js';
import { PCM16_BLOCK_BYTES, simdKernel } from './kernel.js';

/**
 * Band-limited resampling: a polyphase windowed-sinc filter (Kaiser window, β = 8.6, about
 * 85 dB stopband), exact for the rational ratios between espeak-ng's 22,050 Hz and the output
 * rates of SPEC §9 (e.g. 22050 → 48000 is 320/147).
 *
 * We first used libsamplerate-js (SRC_SINC_MEDIUM_QUALITY), but its WebAssembly build
 * resampled 3 s of speech to 48 kHz in about 150 ms, slower than espeak-ng itself. The filter's
 * inner loop is written below in WebAssembly text with 128-bit SIMD (four products per
 * instruction), compiled once per thread by watr: about seven times faster than the same loop in
 * JavaScript, where it was the largest cost of a request (docs/benchmarks.md). The tests check
 * it against libsamplerate-js's best converter and check that a tone above the new Nyquist
 * frequency does not alias. The loop itself is in kernel.ts.
 */

const ZERO_CROSSINGS = 16;
const BETA = 8.6;
/** Pass band ends at 92 % of the lower Nyquist frequency; the transition band lies above. */
const BANDWIDTH = 0.92;

interface Resampler {
  up: number;
  down: number;
  half: number;
  /** Coefficients per phase, padded with zeros to a multiple of eight (two SIMD sums). */
  stride: number;
  table: Float32Array;
}

const cache = new Map<string, Resampler>();

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Modified Bessel function of the first kind, order 0 (for the Kaiser window). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < 1e-12 * sum) break;
  }
  return sum;
}

function resampler(fromRate: number, toRate: number): Resampler {
  const key = `${fromRate}:${toRate}`;
  const known = cache.get(key);
  if (known) return known;
  const divisor = gcd(fromRate, toRate);
  const up = toRate / divisor;
  const down = fromRate / divisor;
  const scale = Math.min(1, up / down);
  // Cut-off in cycles per input sample; the filter widens as the cut-off falls.
  const cutoff = 0.5 * scale * BANDWIDTH;
  const half = Math.ceil(ZERO_CROSSINGS / scale);
  const taps = 2 * half;
  const stride = Math.ceil(taps / 8) * 8;
  const table = new Float32Array(up * stride);
  const i0Beta = besselI0(BETA);
  const phaseTaps = new Float64Array(taps);
  for (let phase = 0; phase < up; phase++) {
    const frac = phase / up;
    let sum = 0;
    for (let k = 0; k < taps; k++) {
      // Distance from the output instant to input sample (base - half + 1 + k).
      const u = frac + half - 1 - k;
      const x = 2 * cutoff * u;
      const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
      const w = u / half;
      const window = Math.abs(w) >= 1 ? 0 : besselI0(BETA * Math.sqrt(1 - w * w)) / i0Beta;
      phaseTaps[k] = 2 * cutoff * sinc * window;
      sum += phaseTaps[k] as number;
    }
    // Unity gain at DC for every phase, so no ripple at the output rate.
    for (let k = 0; k < taps; k++) table[phase * stride + k] = (phaseTaps[k] as number) / sum;
  }
  const made = { up, down, half, stride, table };
  cache.set(key, made);
  return made;
}

/**
 * Resamples mono PCM; samples outside the input count as silence. At the same rate the samples
 * are answered as they are (16-bit ones too); resampled, as floats.
 */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array;
export function resample(samples: Pcm, fromRate: number, toRate: number): Pcm;
export function resample(samples: Pcm, fromRate: number, toRate: number): Pcm {
  if (fromRate === toRate || samples.length === 0) return samples;
  return resampleTransient(samples, fromRate, toRate).slice();
}

/**
 * `resample` without copying the result out of this thread's kernel memory (kernel.ts): the
 * answer is a view into it, valid until the next call into the kernel (`resample`, `pcm16`) or
 * `await`. The post-process stage hands it straight to the encoder (synthesize.ts), so that
 * the request's resampled PCM is never allocated; `pcm16` converts it where it lies. 16-bit
 * samples are converted to floats as they are copied in (at the same rate too, into the same
 * memory), so that they are never floats anywhere else.
 */
export function resampleTransient(samples: Pcm, fromRate: number, toRate: number): Float32Array {
  if (samples instanceof Float32Array && (fromRate === toRate || samples.length === 0)) {
    return samples;
  }
  if (fromRate === toRate || samples.length === 0) {
    const { memory } = simdKernel(samples.length * 4 + PCM16_BLOCK_BYTES);
    const heap = new Float32Array(memory.buffer, 0, samples.length);
    widen(samples as Int16Array, heap);
    return heap;
  }
  const { up, down, half, stride, table } = resampler(fromRate, toRate);
  const length = Math.round((samples.length * up) / down);
  // Memory: the coefficients, then the input between margins of `stride` zeros, then the
  // output and room for `pcm16` to read it in whole blocks.
  const inputAt = table.byteLength;
  const padded = samples.length + 2 * stride;
  const outputAt = inputAt + padded * 4;
  const { memory, resample: run } = simdKernel(outputAt + length * 4 + PCM16_BLOCK_BYTES);
  const heap = new Float32Array(memory.buffer);
  heap.set(table);
  const input = inputAt / 4;
  heap.fill(0, input, input + stride);
  if (samples instanceof Int16Array) widen(samples, heap, input + stride);
  else heap.set(samples, input + stride);
  heap.fill(0, input + stride + samples.length, input + padded);
  // Input sample j sits at padded index j + stride; output n's window starts at base - half + 1.
  run(inputAt, 0, outputAt, length, up, down, stride, stride - half + 1);
  return heap.subarray(outputAt / 4, outputAt / 4 + length);
}
