import type { ProfilePlan } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { PLAN_INFO } from '../../../test/plan-info';
import { usageOf } from './usage';

const plan = (type: ProfilePlan['type'], remaining: number): ProfilePlan => ({
  type,
  period: type === 'FREE' ? 'none' : 'month',
  count_characters: remaining,
  count_characters_per_convert: 1_000,
  count_characters_added: 0,
  engines: ['neural', 'standard'],
});

describe('characters used against the allowance (My Plan)', () => {
  it('used is the allowance minus what remains', () => {
    expect(usageOf(plan('FREE', 15_000), PLAN_INFO)).toEqual({
      allowance: 20_000,
      used: 5_000,
      remaining: 15_000,
      percentUsed: 25,
    });
    expect(usageOf(plan('BASIC', 0), PLAN_INFO).percentUsed).toBe(100);
  });

  it('characters carried over from an earlier purchase count as allowance, not as negative use', () => {
    expect(usageOf(plan('BASIC', 510_000), PLAN_INFO)).toEqual({
      allowance: 510_000,
      used: 0,
      remaining: 510_000,
      percentUsed: 0,
    });
  });
});
