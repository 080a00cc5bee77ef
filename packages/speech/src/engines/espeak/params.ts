/**
 * espeak-ng's pitch parameter (0..99, default 50) is not linear in frequency. This table was
 * measured on the WebAssembly build (en-us, median F0 of a fixed sentence) and is the same
 * law for every voice, since espeak-ng scales each voice's own base pitch by it.
 */
const PITCH_TABLE: readonly (readonly [param: number, ratio: number])[] = [
  [0, 0.732],
  [10, 0.777],
  [25, 0.826],
  [40, 0.917],
  [50, 1],
  [60, 1.106],
  [75, 1.296],
  [90, 1.52],
  [99, 1.684],
];

/** The pitch parameter that moves F0 by `semitones` (clamped to what espeak-ng can do). */
export function pitchParameter(semitones: number): number {
  const ratio = 2 ** (semitones / 12);
  const first = PITCH_TABLE[0];
  const last = PITCH_TABLE.at(-1);
  if (!first || !last) return 50;
  if (ratio <= first[1]) return first[0];
  if (ratio >= last[1]) return last[0];
  for (let i = 1; i < PITCH_TABLE.length; i++) {
    const [p1, r1] = PITCH_TABLE[i] ?? last;
    const [p0, r0] = PITCH_TABLE[i - 1] ?? first;
    if (ratio <= r1) {
      const t = Math.log(ratio / r0) / Math.log(r1 / r0);
      return p0 + t * (p1 - p0);
    }
  }
  return last[0];
}

export const DEFAULT_WPM = 175;
export const MIN_WPM = 80;
export const MAX_WPM = 450;

/** Words per minute for a rate multiplier, within espeak-ng's range. */
export function wordsPerMinute(rate: number): number {
  return Math.min(MAX_WPM, Math.max(MIN_WPM, DEFAULT_WPM * rate));
}
