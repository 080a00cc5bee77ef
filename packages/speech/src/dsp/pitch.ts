/**
 * Pitch shifting for engines that have no pitch control of their own (the neural voices):
 * WSOLA time-stretching by the pitch ratio (Verhelst & Roelands, 1993: overlap-add of
 * windows whose position is searched for the best waveform similarity), then reading the
 * stretched signal back at the ratio, which restores the duration and moves every frequency
 * by the ratio.
 */

function hann(length: number): Float32Array {
  const w = new Float32Array(length);
  for (let i = 0; i < length; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length);
  return w;
}

/** Stretches `samples` to about `factor` times their length without changing their pitch. */
export function timeStretch(
  samples: Float32Array,
  factor: number,
  sampleRate: number,
): Float32Array {
  if (factor === 1 || samples.length === 0) return samples;
  const size = 2 * Math.round(sampleRate * 0.0125); // 25 ms windows
  const hop = size / 2;
  const tolerance = Math.round(sampleRate * 0.008);
  const window = hann(size);
  const outLength = Math.round(samples.length * factor);
  const out = new Float32Array(outLength + size);
  const at = (i: number) => (i >= 0 && i < samples.length ? (samples[i] as number) : 0);
  let previous = 0; // input position of the last window placed
  for (let k = 0; k * hop < outLength; k++) {
    const nominal = Math.round((k * hop) / factor);
    let best = nominal;
    if (k > 0) {
      // The window that would continue the last one naturally, compared with candidates.
      const natural = previous + hop;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (let offset = -tolerance; offset <= tolerance; offset++) {
        const candidate = nominal + offset;
        let score = 0;
        for (let i = 0; i < size; i += 2) score += at(natural + i) * at(candidate + i);
        if (score > bestScore) {
          bestScore = score;
          best = candidate;
        }
      }
    }
    const base = k * hop;
    for (let i = 0; i < size; i++) {
      out[base + i] = (out[base + i] as number) + at(best + i) * (window[i] as number);
    }
    previous = best;
  }
  return out.subarray(0, outLength);
}

/** Moves the pitch by `semitones`, keeping the duration. */
export function pitchShift(
  samples: Float32Array,
  semitones: number,
  sampleRate: number,
): Float32Array {
  if (Math.abs(semitones) < 0.01 || samples.length === 0) return samples;
  const ratio = 2 ** (semitones / 12);
  const stretched = timeStretch(samples, ratio, sampleRate);
  const out = new Float32Array(samples.length);
  for (let n = 0; n < out.length; n++) {
    const position = n * ratio;
    const i = Math.floor(position);
    const t = position - i;
    out[n] = (stretched[i] ?? 0) * (1 - t) + (stretched[i + 1] ?? 0) * t;
  }
  return out;
}
