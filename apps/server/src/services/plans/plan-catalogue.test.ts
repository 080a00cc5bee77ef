import { describe, expect, it } from 'vitest';
import { loadPlanCatalogue, PLAN_DEFAULTS } from './plan-catalogue.js';

describe('the plan catalogue (one configurable place)', () => {
  it('ships sensible defaults: FREE costs nothing, each paid plan gives more', () => {
    expect(loadPlanCatalogue({})).toEqual(PLAN_DEFAULTS);
    expect(PLAN_DEFAULTS.FREE.price).toBe(0);
  });

  it('takes each number from the environment', () => {
    const plans = loadPlanCatalogue({
      PLAN_BASIC_PRICE: '12.50',
      PLAN_BASIC_CHARACTERS: '600000',
      PLAN_FREE_CHARACTERS_PER_CONVERT: '800',
      // FREE is free whatever the environment says.
      PLAN_FREE_PRICE: '5',
    });
    expect(plans.BASIC).toEqual({
      ...PLAN_DEFAULTS.BASIC,
      price: 12.5,
      count_characters: 600_000,
    });
    expect(plans.FREE).toEqual({ ...PLAN_DEFAULTS.FREE, count_characters_per_convert: 800 });
  });

  it('takes the storage and the engines of the seed from the environment', () => {
    const plans = loadPlanCatalogue({
      PLAN_FREE_ENGINES: 'standard',
      PLAN_BUSINESS_ENGINES: 'neural, standard, neural',
      PLAN_BASIC_STORAGE_BYTES: '1000',
    });
    expect(plans.FREE.engines).toEqual(['standard']);
    expect(plans.BUSINESS.engines).toEqual(['neural', 'standard']);
    expect(plans.BASIC.storage_bytes).toBe(1000);
    expect(() => loadPlanCatalogue({ PLAN_BASIC_ENGINES: 'turbo' })).toThrow(
      /PLAN_BASIC_ENGINES: must list engines among neural, standard/,
    );
  });

  it('stops with a message naming each bad variable', () => {
    expect(() =>
      loadPlanCatalogue({ PLAN_PREMIUM_CHARACTERS: 'lots', PLAN_BUSINESS_PRICE: '-1' }),
    ).toThrow(/PLAN_PREMIUM_CHARACTERS: must be a whole number[\s\S]*PLAN_BUSINESS_PRICE/);
    expect(() => loadPlanCatalogue({ PLAN_BASIC_CHARACTERS_PER_CONVERT: '9999999' })).toThrow(
      /PLAN_BASIC_CHARACTERS_PER_CONVERT: must not exceed PLAN_BASIC_CHARACTERS/,
    );
  });
});
