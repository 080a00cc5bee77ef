import { PITCH_LEVELS, SPEED_LEVELS, VOLUME_LEVELS } from '@parla/contract';

/**
 * Values of `<prosody>` attributes, read the way SSML 1.1 and Amazon Polly read them:
 *
 * - an unsigned percentage is relative to the default: `rate="50%"` is half speed, `200%`
 *   double; `pitch="200%"` is an octave up (twice the frequency); `volume="50%"` is half the
 *   amplitude (-6 dB);
 * - a signed value is a change from the current value: `+2st`, `-6dB`, and a signed percentage
 *   on the scale of the editor's toolbar and master sliders (SPEC §9: ±100 %, where +100 %
 *   doubles the rate, is five semitones of pitch and 20 dB of volume);
 * - or one of the named levels.
 *
 * Each function answers a number in the unit the document stores (rate: a factor; pitch:
 * semitones; volume: dB), or a message saying what is accepted.
 */

type Parsed = { ok: true; value: number } | { ok: false; message: string };

const PERCENT = /^([+-]?)(\d+(?:\.\d+)?)%$/;
const DECIBELS = /^([+-]?)(\d+(?:\.\d+)?)dB$/;
const SEMITONES = /^([+-]?)(\d+(?:\.\d+)?)st$/;

/** Named levels as slider percentages; symmetric so that x-slow undoes x-fast. */
const LEVEL_PERCENT = [-80, -40, 0, 40, 80] as const;

function levelPercent(levels: readonly string[], value: string): number | undefined {
  const index = levels.indexOf(value);
  return index < 0 ? undefined : LEVEL_PERCENT[index];
}

function signed(match: RegExpMatchArray): number {
  const magnitude = Number(match[2]);
  return match[1] === '-' ? -magnitude : magnitude;
}

/** Master speed and `<prosody rate>` share one law: +100 % doubles the rate, -100 % halves it. */
export function speedPercentToFactor(percent: number): number {
  return 2 ** (percent / 100);
}

/** Master pitch and `<prosody pitch>` share one law: 20 % is one semitone (±100 % = ±5 st). */
export function pitchPercentToSemitones(percent: number): number {
  return percent / 20;
}

/** `<prosody volume>` percentages use the slider's range: ±100 % is ±20 dB. */
export function volumePercentToDb(percent: number): number {
  return percent / 5;
}

/**
 * A percentage: signed (a change on the slider scale, -100..100) or unsigned (a ratio to the
 * default, `min`..`max` percent). Answers undefined when the value is not a percentage.
 */
function percentage(
  value: string,
  what: string,
  min: number,
  max: number,
): { kind: 'change' | 'ratio'; percent: number } | { kind: 'error'; message: string } | undefined {
  const match = PERCENT.exec(value);
  if (!match) return undefined;
  const percent = signed(match);
  if (match[1] === '') {
    return percent < min || percent > max
      ? {
          kind: 'error',
          message: `${what} "${value}" is outside ${min}% to ${max}% of the default`,
        }
      : { kind: 'ratio', percent };
  }
  return percent < -100 || percent > 100
    ? { kind: 'error', message: `${what} "${value}" is outside -100% to +100%` }
    : { kind: 'change', percent };
}

/** The ranges of unsigned percentages, as a share of the default. */
export const RATIO_RANGES = {
  rate: [20, 400],
  pitch: [50, 200],
  volume: [0, 400],
} as const;

export function parseRate(value: string): Parsed {
  const level = value === 'default' ? 0 : levelPercent(SPEED_LEVELS, value);
  if (level !== undefined) return { ok: true, value: speedPercentToFactor(level) };
  const [min, max] = RATIO_RANGES.rate;
  const found = percentage(value, 'rate', min, max);
  if (found === undefined) {
    return {
      ok: false,
      message: `rate "${value}" is not a percentage (50% is half speed, +20% a little faster) or one of ${SPEED_LEVELS.join(', ')}`,
    };
  }
  if (found.kind === 'error') return { ok: false, message: found.message };
  return {
    ok: true,
    value: found.kind === 'ratio' ? found.percent / 100 : speedPercentToFactor(found.percent),
  };
}

const PITCH_ALIASES = ['x-low', 'low', 'medium', 'high', 'x-high'] as const;

export function parsePitch(value: string): Parsed {
  const level =
    value === 'default'
      ? 0
      : (levelPercent(PITCH_LEVELS, value) ?? levelPercent(PITCH_ALIASES, value));
  if (level !== undefined) return { ok: true, value: pitchPercentToSemitones(level) };
  const st = SEMITONES.exec(value);
  if (st) {
    const semitones = signed(st);
    if (Math.abs(semitones) > 12) {
      return { ok: false, message: `pitch "${value}" is outside -12st to 12st` };
    }
    return { ok: true, value: semitones };
  }
  const [min, max] = RATIO_RANGES.pitch;
  const found = percentage(value, 'pitch', min, max);
  if (found === undefined) {
    return {
      ok: false,
      message: `pitch "${value}" is not a percentage (200% is an octave up, +20% a little higher), semitones (e.g. +2st) or one of ${PITCH_LEVELS.join(', ')}`,
    };
  }
  if (found.kind === 'error') return { ok: false, message: found.message };
  return {
    ok: true,
    value:
      found.kind === 'ratio'
        ? 12 * Math.log2(found.percent / 100)
        : pitchPercentToSemitones(found.percent),
  };
}

const VOLUME_LEVEL_DB = [-12, -6, 0, 6, 12] as const;

/** `silent` and `0%`: far below 16-bit quantisation. */
const SILENT_DB = -96;

export function parseVolume(value: string): Parsed {
  if (value === 'default') return { ok: true, value: 0 };
  if (value === 'silent') return { ok: true, value: SILENT_DB };
  const index = (VOLUME_LEVELS as readonly string[]).indexOf(value);
  const levelDb = index < 0 ? undefined : VOLUME_LEVEL_DB[index];
  if (levelDb !== undefined) return { ok: true, value: levelDb };
  const db = DECIBELS.exec(value);
  if (db) {
    const gain = signed(db);
    if (Math.abs(gain) > 20) {
      return { ok: false, message: `volume "${value}" is outside -20dB to 20dB` };
    }
    return { ok: true, value: gain };
  }
  const [min, max] = RATIO_RANGES.volume;
  const found = percentage(value, 'volume', min, max);
  if (found === undefined) {
    return {
      ok: false,
      message: `volume "${value}" is not a percentage (50% is half as loud, +20% a little louder), decibels (e.g. -6dB), silent or one of ${VOLUME_LEVELS.join(', ')}`,
    };
  }
  if (found.kind === 'error') return { ok: false, message: found.message };
  if (found.kind === 'change') return { ok: true, value: volumePercentToDb(found.percent) };
  return {
    ok: true,
    value: found.percent === 0 ? SILENT_DB : 20 * Math.log10(found.percent / 100),
  };
}

const BREAK_TIME = /^(\d+(?:\.\d+)?)(ms|s)$/;

/** Seconds of a break strength (SSML 1.1 §3.2.3 leaves them to the processor). */
export const BREAK_STRENGTH_SECONDS = {
  none: 0,
  'x-weak': 0.1,
  weak: 0.25,
  medium: 0.5,
  strong: 1,
  'x-strong': 2,
} as const;

export function parseBreakTime(value: string): Parsed {
  const match = BREAK_TIME.exec(value);
  if (!match) {
    return {
      ok: false,
      message: `break time "${value}" must be a number followed by s or ms (e.g. 500ms, 2s)`,
    };
  }
  const amount = Number(match[1]);
  return { ok: true, value: match[2] === 'ms' ? amount / 1000 : amount };
}
