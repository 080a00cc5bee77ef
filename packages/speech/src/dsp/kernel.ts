import watr from 'watr';

/**
 * The DSP loops that are a request's cost, written in WebAssembly text with 128-bit SIMD and
 * compiled once per thread by watr: the resampler's filter (resample.ts) and the conversion of
 * float samples to 16-bit (`pcm16`, for WAV). Both work in this module's memory, which grows
 * to the largest piece handled and stays, so that a request allocates no scratch space.
 */

/**
 * floor(v × (v < 0 ? 32768 : 32767) + 0.5) of two samples as doubles (`promoted`), as 32-bit
 * integers in lanes 0 and 1: the rounding of `pcm16`, in double precision as JavaScript does
 * it, so that the values are those of the loop it replaced.
 */
const rounded = (promoted: string) => `
  (i32x4.trunc_sat_f64x2_s_zero
    (f64x2.floor
      (f64x2.add
        (f64x2.mul (local.tee $v ${promoted})
          (v128.bitselect (v128.const f64x2 32768 32768) (v128.const f64x2 32767 32767)
            (f64x2.lt (local.get $v) (v128.const f64x2 0 0))))
        (v128.const f64x2 0.5 0.5))))`;

/** Four samples of `vector` (f32x4) rounded to 32-bit integers (i32x4). */
const fourRounded = (vector: string) => `
  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
    ${rounded(`(f64x2.promote_low_f32x4 (local.get ${vector}))`)}
    ${rounded(`(f64x2.promote_low_f32x4
      (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15
        (local.get ${vector}) (local.get ${vector})))`)})`;

/**
 * `resample`: output n is the dot product of the phase's coefficients with the input window
 * starting at `base + margin` (input padded with zeros, so no bounds tests); after each output
 * the phase advances by `down` and the window by a sample each time the phase passes `up`. Two
 * SIMD sums of four lanes each, so that the additions do not wait on each other.
 *
 * `quantise`: `count` float samples (a multiple of eight: the input is padded) to 16-bit, eight
 * at a time; the narrowing saturates, which is the clamp to -32768..32767. Memory is
 * little-endian whatever the machine, as WAV is. Addresses are in bytes.
 */
const MODULE = `
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
        (br $each))))
  (func (export "quantise") (param $input i32) (param $output i32) (param $count i32)
    (local $end i32) (local $a v128) (local $b v128) (local $v v128)
    (local.set $end (i32.add (local.get $input) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $each
        (br_if $done (i32.ge_u (local.get $input) (local.get $end)))
        (local.set $a (v128.load (local.get $input)))
        (local.set $b (v128.load offset=16 (local.get $input)))
        (v128.store (local.get $output)
          (i16x8.narrow_i32x4_s ${fourRounded('$a')} ${fourRounded('$b')}))
        (local.set $input (i32.add (local.get $input) (i32.const 32)))
        (local.set $output (i32.add (local.get $output) (i32.const 16)))
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
  quantise(input: number, output: number, count: number): void;
}

let kernel: Kernel | undefined;

/** This thread's instance, its memory at least `bytes` long. */
export function simdKernel(bytes: number): Kernel {
  kernel ??= watr(MODULE) as unknown as Kernel;
  const { memory } = kernel;
  if (memory.buffer.byteLength < bytes) {
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
  }
  return kernel;
}

/** Bytes of float samples `quantise` reads at once (eight samples). */
export const PCM16_BLOCK_BYTES = 32;

/**
 * PCM 16-bit little-endian, rounded (no dither: espeak-ng's output has no detail that low):
 * floor(v + 0.5) of the sample scaled by 32768 below zero and 32767 above, clamped. Samples
 * already in the kernel's memory (`resampleTransient`, resample.ts) are converted where they
 * lie, the 16-bit values written over the floats they come from; others are copied in first.
 */
export function pcm16(samples: Float32Array): Uint8Array {
  const count = Math.ceil(samples.length / 8) * 8;
  let at = 0;
  let memory: Kernel['memory'];
  let quantise: Kernel['quantise'];
  if (kernel && samples.buffer === kernel.memory.buffer) {
    // resampleTransient left room for the last block after its output.
    ({ memory, quantise } = kernel);
    at = samples.byteOffset;
  } else {
    ({ memory, quantise } = simdKernel(count * 4));
    const heap = new Float32Array(memory.buffer, 0, count);
    heap.set(samples);
    heap.fill(0, samples.length);
  }
  // Each block is read before its 16-bit values are written, at or below its own address.
  quantise(at, at, count);
  return new Uint8Array(memory.buffer.slice(at, at + samples.length * 2));
}
