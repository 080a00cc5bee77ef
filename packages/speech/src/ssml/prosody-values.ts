import { PITCH_LEVELS, SPEED_LEVELS, VOLUME_LEVELS } from '@parla/contract';

/**
 * Values of `<prosody>` attributes. The dialect follows the editor (SPEC §9): a percentage is
 * a change from the current value (default 0 %, range -100..100 %, the same scale as the master
 * sliders), or one of the named levels. Each function answers a number in the unit the
 * document stores, or a message saying what is accepted.
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

function percentInRange(value: string): number | undefined | 'out-of-range' {
  const match = PERCENT.exec(value);
  if (!match) return undefined;
  const percent = signed(match);
  return percent < -100 || percent > 100 ? 'out-of-range' : percent;
}

export function parseRate(value: string): Parsed {
  const level = value === 'default' ? 0 : levelPercent(SPEED_LEVELS, value);
  const percent = level ?? percentInRange(value);
  if (percent === 'out-of-range') {
    return { ok: false, message: `rate "${value}" is outside -100% to 100%` };
  }
  if (percent === undefined) {
    return {
      ok: false,
      message: `rate "${value}" is not a percentage (-100% to 100%) or one of ${SPEED_LEVELS.join(', ')}`,
    };
  }
  return { ok: true, value: speedPercentToFactor(percent) };
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
  const percent = percentInRange(value);
  if (percent === 'out-of-range') {
    return { ok: false, message: `pitch "${value}" is outside -100% to 100%` };
  }
  if (percent === undefined) {
    return {
      ok: false,
      message: `pitch "${value}" is not a percentage (-100% to 100%), semitones (e.g. +2st) or one of ${PITCH_LEVELS.join(', ')}`,
    };
  }
  return { ok: true, value: pitchPercentToSemitones(percent) };
}

const VOLUME_LEVEL_DB = [-12, -6, 0, 6, 12] as const;

export function parseVolume(value: string): Parsed {
  if (value === 'default') return { ok: true, value: 0 };
  if (value === 'silent') return { ok: true, value: -96 };
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
  const percent = percentInRange(value);
  if (percent === 'out-of-range') {
    return { ok: false, message: `volume "${value}" is outside -100% to 100%` };
  }
  if (percent === undefined) {
    return {
      ok: false,
      message: `volume "${value}" is not a percentage (-100% to 100%), decibels (e.g. -6dB), silent or one of ${VOLUME_LEVELS.join(', ')}`,
    };
  }
  return { ok: true, value: volumePercentToDb(percent) };
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
