import type { ProfilePlan } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { usageOf } from './usage';

/** A plan bought with the product's default allowances (FREE 20,000, BASIC 500,000). */
const plan = (type: ProfilePlan['type'], remaining: number): ProfilePlan => ({
  type,
  period: type === 'FREE' ? 'none' : 'month',
  count_characters: remaining,
  count_characters_per_convert: 1_000,
  count_characters_added: 0,
  count_characters_allowance: type === 'FREE' ? 20_000 : 500_000,
  engines: ['neural', 'standard'],
});

describe('characters used against the allowance (My Plan)', () => {
  it('used is the allowance minus what remains', () => {
    expect(usageOf(plan('FREE', 15_000))).toEqual({
      allowance: 20_000,
      used: 5_000,
      remaining: 15_000,
      percentUsed: 25,
    });
    expect(usageOf(plan('BASIC', 0)).percentUsed).toBe(100);
  });

  it('measures against the allowance bought, not the plan’s terms now', () => {
    const bought = { ...plan('BASIC', 100_000), count_characters_allowance: 400_000 };
    expect(usageOf(bought).used).toBe(300_000);
  });

  it('characters carried over from an earlier purchase count as allowance, not as negative use', () => {
    expect(usageOf(plan('BASIC', 510_000))).toEqual({
      allowance: 510_000,
      used: 0,
      remaining: 510_000,
      percentUsed: 0,
    });
  });
});
