import { MPEGDecoder } from 'mpg123-decoder';
import { resample } from '../src/dsp/resample.js';
import { decodeOggVorbis } from '../src/encode/decoders.js';

/** Test helpers: decode what the engine produced and measure it. */

export interface Decoded {
  samples: Float32Array;
  sampleRate: number;
}

export function decodeWav(bytes: Uint8Array): Decoded {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (text(0) !== 'RIFF' || text(8) !== 'WAVE') throw new Error('not a WAV file');
  const sampleRate = view.getUint32(24, true);
  if (view.getUint16(22, true) !== 1 || view.getUint16(34, true) !== 16) {
    throw new Error('not mono 16-bit');
  }
  const dataBytes = view.getUint32(40, true);
  if (dataBytes !== bytes.length - 44) throw new Error('data size does not match the file');
  const samples = new Float32Array(dataBytes / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(44 + i * 2, true) / 32768;
  return { samples, sampleRate };
}

export async function decodeMp3(bytes: Uint8Array): Promise<Decoded> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const result = decoder.decode(bytes);
    return { samples: result.channelData[0] ?? new Float32Array(0), sampleRate: result.sampleRate };
  } finally {
    decoder.free();
  }
}

export function decodeOgg(bytes: Uint8Array): Promise<Decoded> {
  return decodeOggVorbis(bytes);
}

export function decode(format: 'wav' | 'mp3' | 'ogg', bytes: Uint8Array): Promise<Decoded> {
  if (format === 'wav') return Promise.resolve(decodeWav(bytes));
  return format === 'mp3' ? decodeMp3(bytes) : decodeOgg(bytes);
}

export function rmsDb(samples: Float32Array): number {
  let sum = 0;
  for (const x of samples) sum += x * x;
  return 10 * Math.log10(sum / Math.max(1, samples.length));
}

/** Internal pauses only: silence between the first and the last sound. */
export function innerSilences(samples: Float32Array, sampleRate: number): number[] {
  const window = Math.round(sampleRate * 0.01);
  const loud: boolean[] = [];
  for (let start = 0; start + window <= samples.length; start += window) {
    let peak = 0;
    for (let i = start; i < start + window; i++) peak = Math.max(peak, Math.abs(samples[i] ?? 0));
    loud.push(peak >= 0.003);
  }
  const first = loud.indexOf(true);
  const last = loud.lastIndexOf(true);
  const runs: number[] = [];
  let run = 0;
  for (let i = first; i <= last; i++) {
    if (!loud[i]) run++;
    else if (run > 0) {
      runs.push((run * window) / sampleRate);
      run = 0;
    }
  }
  return runs;
}

/** Median fundamental frequency of voiced 40 ms frames, by normalised autocorrelation. */
export function medianF0(samples: Float32Array, sampleRate: number): number {
  const frame = Math.round(sampleRate * 0.04);
  const hop = Math.round(sampleRate * 0.02);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.floor(sampleRate / 60);
  const found: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += hop) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += (samples[start + i] ?? 0) ** 2;
    if (Math.sqrt(energy / frame) < 0.02) continue;
    let bestLag = 0;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let c = 0;
      let e2 = 0;
      for (let i = 0; i < frame; i++) {
        c += (samples[start + i] ?? 0) * (samples[start + i + lag] ?? 0);
        e2 += (samples[start + i + lag] ?? 0) ** 2;
      }
      const r = c / Math.sqrt(energy * e2 || 1);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6 && bestLag > 0) found.push(sampleRate / bestLag);
  }
  found.sort((a, b) => a - b);
  return found[Math.floor(found.length / 2)] ?? 0;
}

/** Energy at one frequency relative to the total (Goertzel), 0..1. */
export function toneShare(samples: Float32Array, sampleRate: number, frequency: number): number {
  const k = (2 * Math.PI * frequency) / sampleRate;
  const coeff = 2 * Math.cos(k);
  let s1 = 0;
  let s2 = 0;
  let total = 0;
  for (const x of samples) {
    const s0 = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
    total += x * x;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return (2 * power) / (samples.length * total || 1);
}

/** Mean absolute difference of two signals over the shorter one, plus their length change. */
export function difference(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / n + Math.abs(a.length - b.length) / Math.max(a.length, b.length);
}

/**
 * The share of the energy above `cutoff` Hz: what a round trip through a rate of twice the
 * cutoff (whose resampler keeps only what lies below it) takes away.
 */
export function highBandShare(samples: Float32Array, sampleRate: number, cutoff: number): number {
  const low = resample(resample(samples, sampleRate, cutoff * 2), cutoff * 2, sampleRate);
  let high = 0;
  let all = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] ?? 0;
    high += (x - (low[i] ?? 0)) ** 2;
    all += x * x;
  }
  return all > 0 ? high / all : 0;
}
