import { describe, expect, it } from 'vitest';
import {
  CARD_BRANDS,
  DEFAULT_AUDIO_FORMAT,
  DEFAULT_ENGINE,
  DEFAULT_PLAN_TYPE,
  DEFAULT_SAMPLE_RATE,
  ENGINES,
  PAID_PLAN_TYPES,
  PAUSE,
  PLAN_TYPES,
  PLAYER_SPEEDS,
  SAMPLE_RATES,
  SAY_AS_TYPES,
  SLIDERS,
  STANDARD_ONLY_EFFECTS,
  TAG_COSTS,
  VOICE_EFFECTS,
} from './constants.js';
import { defaultSampleRate } from './sample-rate.js';

describe('constants (SPEC §9)', () => {
  it('has the 18 voice effects in SPEC order, standard-only ones first', () => {
    expect(VOICE_EFFECTS).toHaveLength(18);
    expect(new Set(VOICE_EFFECTS).size).toBe(18);
    expect(VOICE_EFFECTS.slice(0, 3)).toEqual([...STANDARD_ONLY_EFFECTS]);
    expect(VOICE_EFFECTS.at(-1)).toBe('unfriendly');
  });

  it('has the 12 say-as types', () => {
    expect(SAY_AS_TYPES).toHaveLength(12);
    expect(new Set(SAY_AS_TYPES).size).toBe(12);
  });

  it('has the tag costs of SPEC §9', () => {
    expect(TAG_COSTS).toEqual({
      pause: 19,
      speed: 33,
      volume: 35,
      pitch: 34,
      sayAs: 45,
      emphasis: 36,
      voiceEffect: 23,
    });
  });

  it('defaults are members of their lists and consistent with the sample-rate rules', () => {
    expect(ENGINES).toContain(DEFAULT_ENGINE);
    expect(SAMPLE_RATES).toContain(DEFAULT_SAMPLE_RATE);
    expect(PLAN_TYPES).toContain(DEFAULT_PLAN_TYPE);
    expect(defaultSampleRate(DEFAULT_ENGINE, DEFAULT_AUDIO_FORMAT)).toBe(DEFAULT_SAMPLE_RATE);
    expect(PAID_PLAN_TYPES).toEqual(PLAN_TYPES.filter((type) => type !== 'FREE'));
  });

  it('player speeds go 0.2 to 2 in exact steps of 0.2', () => {
    expect(PLAYER_SPEEDS).toEqual([0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2]);
  });

  it('slider ticks divide their ranges', () => {
    for (const slider of Object.values(SLIDERS)) {
      expect((slider.max - slider.min) % slider.tick).toBe(0);
      expect(slider.min).toBe(-slider.max);
    }
    expect(PAUSE.defaultValue).toBeGreaterThanOrEqual(PAUSE.min);
    expect(PAUSE.units).toContain(PAUSE.defaultUnit);
  });

  it('has the seven card brands', () => {
    expect(CARD_BRANDS).toHaveLength(7);
  });
});
