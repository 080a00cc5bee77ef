import { type AudioFormat, type Engine, SAMPLE_RATES, type SampleRate } from './constants.js';

/**
 * Sample-rate rules of SPEC §5 "Editor and conversion":
 * - neural + mp3/ogg defaults to 48000; standard + mp3/ogg defaults to 24000; wav forces 16000;
 * - the standard engine cannot produce 48000 or 44100;
 * - wav allows 16000 only.
 * The editor uses these to fill and disable the select; the server uses the same rules
 * (through `VoiceSettingsSchema`) to refuse an illegal combination.
 */

const WAV_RATE = 16000 satisfies SampleRate;
const STANDARD_MAX_RATE = 24000 satisfies SampleRate;

export function defaultSampleRate(engine: Engine, format: AudioFormat): SampleRate {
  if (format === 'wav') return WAV_RATE;
  return engine === 'standard' ? STANDARD_MAX_RATE : 48000;
}

export function allowedSampleRates(engine: Engine, format: AudioFormat): SampleRate[] {
  if (format === 'wav') return [WAV_RATE];
  if (engine === 'standard') return SAMPLE_RATES.filter((rate) => rate <= STANDARD_MAX_RATE);
  return [...SAMPLE_RATES];
}

export function isSampleRate(rate: number): rate is SampleRate {
  return (SAMPLE_RATES as readonly number[]).includes(rate);
}

/**
 * A human message for an illegal engine/format/rate combination, or undefined when it is
 * allowed. Takes any number so that the server can pass what a client sent.
 */
export function sampleRateError(
  engine: Engine,
  format: AudioFormat,
  rate: number,
): string | undefined {
  if (!isSampleRate(rate)) {
    return `Sample rate must be one of ${SAMPLE_RATES.join(', ')} Hz.`;
  }
  if (format === 'wav' && rate !== WAV_RATE) return 'WAV output is 16000 Hz only.';
  if (engine === 'standard' && rate > STANDARD_MAX_RATE) {
    return `The standard engine does not support ${rate} Hz; choose ${STANDARD_MAX_RATE} Hz or lower.`;
  }
  return undefined;
}

/**
 * The rate to keep after the engine or format changed: the current one if still allowed,
 * otherwise the default of the new combination (SPEC §4: "Engine change resets the sample rate";
 * the editor may also call `defaultSampleRate` directly to always reset).
 */
export function coerceSampleRate(engine: Engine, format: AudioFormat, rate: number): SampleRate {
  return isSampleRate(rate) && sampleRateError(engine, format, rate) === undefined
    ? rate
    : defaultSampleRate(engine, format);
}
