import { describe, expect, it } from 'vitest';
import {
  AUDIO_FORMATS,
  type AudioFormat,
  ENGINES,
  type Engine,
  SAMPLE_RATES,
} from './constants.js';
import {
  allowedSampleRates,
  coerceSampleRate,
  defaultSampleRate,
  isSampleRate,
  sampleRateError,
} from './sample-rate.js';

const table: Array<{ engine: Engine; format: AudioFormat; def: number; allowed: number[] }> = [
  {
    engine: 'neural',
    format: 'mp3',
    def: 48000,
    allowed: [48000, 44100, 24000, 22050, 16000, 8000],
  },
  {
    engine: 'neural',
    format: 'ogg',
    def: 48000,
    allowed: [48000, 44100, 24000, 22050, 16000, 8000],
  },
  { engine: 'neural', format: 'wav', def: 16000, allowed: [16000] },
  { engine: 'standard', format: 'mp3', def: 24000, allowed: [24000, 22050, 16000, 8000] },
  { engine: 'standard', format: 'ogg', def: 24000, allowed: [24000, 22050, 16000, 8000] },
  { engine: 'standard', format: 'wav', def: 16000, allowed: [16000] },
];

describe('sample-rate rules (SPEC §5)', () => {
  it('covers every engine × format', () => {
    expect(table).toHaveLength(ENGINES.length * AUDIO_FORMATS.length);
  });

  it.each(table)(
    '$engine + $format: default $def, allowed $allowed',
    ({ engine, format, def, allowed }) => {
      expect(defaultSampleRate(engine, format)).toBe(def);
      expect(allowedSampleRates(engine, format)).toEqual(allowed);
      expect(allowed).toContain(def);
      for (const rate of SAMPLE_RATES) {
        const error = sampleRateError(engine, format, rate);
        if (allowed.includes(rate)) expect(error).toBeUndefined();
        else expect(error).toEqual(expect.any(String));
      }
    },
  );

  it('explains each refusal', () => {
    expect(sampleRateError('standard', 'mp3', 48000)).toBe(
      'The standard engine does not support 48000 Hz; choose 24000 Hz or lower.',
    );
    expect(sampleRateError('standard', 'ogg', 44100)).toBe(
      'The standard engine does not support 44100 Hz; choose 24000 Hz or lower.',
    );
    expect(sampleRateError('neural', 'wav', 48000)).toBe('WAV output is 16000 Hz only.');
    expect(sampleRateError('standard', 'wav', 8000)).toBe('WAV output is 16000 Hz only.');
    expect(sampleRateError('neural', 'mp3', 12345)).toBe(
      'Sample rate must be one of 48000, 44100, 24000, 22050, 16000, 8000 Hz.',
    );
  });

  it('does not hand out the shared tuple (callers may mutate the list)', () => {
    const list = allowedSampleRates('neural', 'mp3');
    list.pop();
    expect(allowedSampleRates('neural', 'mp3')).toHaveLength(6);
  });

  it('recognises sample rates', () => {
    expect(isSampleRate(22050)).toBe(true);
    expect(isSampleRate(11025)).toBe(false);
  });

  it('keeps an allowed rate and resets an illegal one to the default', () => {
    expect(coerceSampleRate('neural', 'mp3', 22050)).toBe(22050);
    expect(coerceSampleRate('standard', 'mp3', 48000)).toBe(24000);
    expect(coerceSampleRate('standard', 'mp3', 8000)).toBe(8000);
    expect(coerceSampleRate('neural', 'wav', 48000)).toBe(16000);
    expect(coerceSampleRate('neural', 'ogg', 1)).toBe(48000);
  });
});
