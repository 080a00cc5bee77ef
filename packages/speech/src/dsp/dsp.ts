/** Small sample-level DSP on mono PCM: floats in -1..1 unless a function says otherwise. */

/**
 * Mono PCM as a stage carries it: floats in -1..1, or the 16-bit samples espeak-ng makes (full
 * scale 32768), kept as they are until something changes them (docs/decisions/
 * 056-espeak-samples-stay-16-bit.md): converting each rendering to floats cost a copy of twice
 * its size and the garbage collections it drove.
 */
export type Pcm = Float32Array | Int16Array;

/** 16-bit samples written into `out` from `at` as floats in -1..1 (exact: a power of two). */
export function widen(samples: Int16Array, out: Float32Array, at = 0): void {
  for (let i = 0; i < samples.length; i++) out[at + i] = (samples[i] as number) * (1 / 32768);
}

/** Samples as floats in -1..1: 16-bit ones in a new array, floats as they are. */
export function floatPcm(samples: Pcm): Float32Array {
  if (samples instanceof Float32Array) return samples;
  const out = new Float32Array(samples.length);
  widen(samples, out);
  return out;
}

export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}

export function applyGain(samples: Float32Array, db: number): void {
  if (db === 0) return;
  const gain = dbToGain(db);
  for (let i = 0; i < samples.length; i++) samples[i] = (samples[i] ?? 0) * gain;
}

/**
 * Keeps positive master volumes from clipping: transparent below 0.8 (about -2 dBFS), a tanh
 * knee above it that approaches a ceiling of 0.98 (about -0.2 dBFS). RMS therefore rises by the full
 * dB amount only while the peaks stay below the knee.
 */
export function softLimit(samples: Float32Array): void {
  const knee = 0.8;
  const room = 0.98 - knee;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] ?? 0;
    const magnitude = Math.abs(x);
    if (magnitude > knee) {
      samples[i] = Math.sign(x) * (knee + room * Math.tanh((magnitude - knee) / room));
    }
  }
}

export function silence(seconds: number, sampleRate: number): Float32Array {
  return new Float32Array(Math.round(seconds * sampleRate));
}

/**
 * The parts one after the other; a single part is answered as it is, not copied. Several are
 * joined as floats (16-bit parts converted).
 */
export function concat(parts: readonly Float32Array[]): Float32Array;
export function concat(parts: readonly Pcm[]): Pcm;
export function concat(parts: readonly Pcm[]): Pcm {
  if (parts.length === 1) return parts[0] as Pcm;
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    if (part instanceof Int16Array) widen(part, out, at);
    else out.set(part, at);
    at += part.length;
  }
  return out;
}

const SILENCE_THRESHOLD = 0.004; // about -48 dBFS

/** The threshold in the samples' own scale. */
const threshold = (samples: Pcm) =>
  samples instanceof Int16Array ? SILENCE_THRESHOLD * 32768 : SILENCE_THRESHOLD;

/** Index of the first sample louder than the threshold (or length when all is quiet). */
export function firstSound(samples: Pcm): number {
  const limit = threshold(samples);
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i] ?? 0) > limit) return i;
  }
  return samples.length;
}

/** One past the last sample louder than the threshold (0 when all is quiet). */
export function lastSound(samples: Pcm): number {
  const limit = threshold(samples);
  for (let i = samples.length - 1; i >= 0; i--) {
    if (Math.abs(samples[i] ?? 0) > limit) return i + 1;
  }
  return 0;
}

/**
 * Trims leading and trailing silence down to the given margins, so that an explicit break is
 * the only pause at that point (espeak-ng ends every utterance with its own clause pause).
 * Answers the trimmed view and how many samples were cut from the start.
 */
export function trimSilence<T extends Pcm>(
  samples: T,
  sampleRate: number,
  options: { start?: number; end?: number },
): { samples: T; cutStart: number } {
  let begin = 0;
  let end = samples.length;
  if (options.start !== undefined) {
    begin = Math.max(0, firstSound(samples) - Math.round(options.start * sampleRate));
  }
  if (options.end !== undefined) {
    end = Math.min(samples.length, lastSound(samples) + Math.round(options.end * sampleRate));
  }
  if (end <= begin) return { samples: samples.subarray(0, 0) as T, cutStart: 0 };
  return { samples: samples.subarray(begin, end) as T, cutStart: begin };
}

/** A 1 kHz bleep with 5 ms ramps, at -12 dBFS (say-as expletive). */
export function bleep(seconds: number, sampleRate: number): Float32Array {
  const out = silence(seconds, sampleRate);
  const ramp = Math.round(0.005 * sampleRate);
  for (let i = 0; i < out.length; i++) {
    const envelope = Math.min(1, i / ramp, (out.length - 1 - i) / ramp);
    out[i] = 0.25 * envelope * Math.sin((2 * Math.PI * 1000 * i) / sampleRate);
  }
  return out;
}

/** Deterministic noise, so the same request always gives the same bytes (and cache key). */
function noise(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 0xffffffff) * 2 - 1;
  };
}

/**
 * An in-breath: band-passed noise (two one-pole filters, roughly 400-2500 Hz) under a rising
 * then falling envelope, 350 ms at about -30 dBFS RMS.
 */
export function inBreath(sampleRate: number, seed = 1): Float32Array {
  const out = silence(0.35, sampleRate);
  const random = noise(seed);
  const hp = Math.exp((-2 * Math.PI * 400) / sampleRate);
  const lp = Math.exp((-2 * Math.PI * 2500) / sampleRate);
  let low = 0;
  let lowForHigh = 0;
  for (let i = 0; i < out.length; i++) {
    const x = random();
    lowForHigh = (1 - hp) * x + hp * lowForHigh;
    const high = x - lowForHigh;
    low = (1 - lp) * high + lp * low;
    const t = i / out.length;
    const envelope = Math.sin(Math.PI * t ** 0.7);
    out[i] = 0.12 * envelope * low;
  }
  return out;
}

/** Two cascaded one-pole low-pass filters: a gentle darkening for the soft effect. */
export function lowPass(samples: Float32Array, cutoff: number, sampleRate: number): void {
  const a = Math.exp((-2 * Math.PI * cutoff) / sampleRate);
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i++) {
    y1 = (1 - a) * (samples[i] ?? 0) + a * y1;
    y2 = (1 - a) * y1 + a * y2;
    samples[i] = y2;
  }
}
