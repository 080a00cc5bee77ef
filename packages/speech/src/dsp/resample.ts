import watr from 'watr';

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
 * frequency does not alias.
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
 * Output n is the dot product of the phase's coefficients with the input window starting at
 * `base + margin` (input padded with zeros, so no bounds tests); after each output the phase
 * advances by `down` and the window by a sample each time the phase passes `up`. Two SIMD sums
 * of four lanes each, so that the additions do not wait on each other. Addresses are in bytes.
 */
const KERNEL = `
(module
  (memory (export "memory") 1)
  (func (export "resample")
    (param $input i32) (param $table i32) (param $output i32) (param $length i32)
    (param $up i32) (param $down i32) (param $stride i32) (param $margin i32)
    (local $n i32) (local $base i32) (local $phase i32)
    (local $x i32) (local $t i32) (local $end i32) (local $a v128) (local $b v128)
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $n) (local.get $length)))
        (local.set $x (i32.add (local.get $input)
          (i32.shl (i32.add (local.get $base) (local.get $margin)) (i32.const 2))))
        (local.set $t (i32.add (local.get $table)
          (i32.shl (i32.mul (local.get $phase) (local.get $stride)) (i32.const 2))))
        (local.set $end (i32.add (local.get $t) (i32.shl (local.get $stride) (i32.const 2))))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (loop $taps
          (local.set $a (f32x4.add (local.get $a)
            (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $t)))))
          (local.set $b (f32x4.add (local.get $b)
            (f32x4.mul (v128.load offset=16 (local.get $x)) (v128.load offset=16 (local.get $t)))))
          (local.set $x (i32.add (local.get $x) (i32.const 32)))
          (local.set $t (i32.add (local.get $t) (i32.const 32)))
          (br_if $taps (i32.lt_u (local.get $t) (local.get $end))))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (i32.add (local.get $output) (i32.shl (local.get $n) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $phase (i32.add (local.get $phase) (local.get $down)))
        (block $stepped
          (loop $step
            (br_if $stepped (i32.lt_u (local.get $phase) (local.get $up)))
            (local.set $phase (i32.sub (local.get $phase) (local.get $up)))
            (local.set $base (i32.add (local.get $base) (i32.const 1)))
            (br $step)))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $each)))))`;

interface Kernel {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  resample(
    input: number,
    table: number,
    output: number,
    length: number,
    up: number,
    down: number,
    stride: number,
    margin: number,
  ): void;
}

let kernel: Kernel | undefined;

/** One instance per thread; its memory grows to the largest piece resampled and stays. */
function loadKernel(): Kernel {
  kernel ??= watr(KERNEL) as unknown as Kernel;
  return kernel;
}

/** Resamples mono PCM; samples outside the input count as silence. */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate || samples.length === 0) return samples;
  const { up, down, half, stride, table } = resampler(fromRate, toRate);
  const length = Math.round((samples.length * up) / down);
  const { memory, resample: run } = loadKernel();
  // Memory: the coefficients, then the input between margins of `stride` zeros, then the output.
  const inputAt = table.byteLength;
  const padded = samples.length + 2 * stride;
  const outputAt = inputAt + padded * 4;
  const needed = outputAt + length * 4;
  if (memory.buffer.byteLength < needed) {
    memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
  }
  const heap = new Float32Array(memory.buffer);
  heap.set(table);
  const input = inputAt / 4;
  heap.fill(0, input, input + stride);
  heap.set(samples, input + stride);
  heap.fill(0, input + stride + samples.length, input + padded);
  // Input sample j sits at padded index j + stride; output n's window starts at base - half + 1.
  run(inputAt, 0, outputAt, length, up, down, stride, stride - half + 1);
  return heap.slice(outputAt / 4, outputAt / 4 + length);
}
