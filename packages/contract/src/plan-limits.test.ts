import { describe, expect, it } from 'vitest';
import { PLAN_TYPES } from './constants.js';
import { JOB_CHARACTER_LIMITS } from './jobs.js';
import { lexiconLimits } from './lexicons.js';
import { CONVERSIONS_AT_ONCE, planLimits } from './plan-limits.js';

describe('planLimits', () => {
  it('reads each limit from the constant the server enforces', () => {
    for (const type of PLAN_TYPES) {
      const limits = planLimits(type);
      expect(limits.documentCharacters).toBe(JOB_CHARACTER_LIMITS[type]);
      expect(limits.conversionsAtOnce).toBe(CONVERSIONS_AT_ONCE[type]);
      expect({ lexicons: limits.lexicons, entries: limits.lexiconEntries }).toEqual(
        lexiconLimits(type, 'USER'),
      );
    }
  });

  it('never gives a higher plan less than a lower one', () => {
    for (let index = 1; index < PLAN_TYPES.length; index += 1) {
      const lower = planLimits(PLAN_TYPES[index - 1] ?? 'FREE');
      const higher = planLimits(PLAN_TYPES[index] ?? 'FREE');
      for (const key of Object.keys(lower) as (keyof typeof lower)[]) {
        expect(higher[key], key).toBeGreaterThanOrEqual(lower[key]);
      }
    }
  });

  it('FREE has no documents', () => {
    expect(planLimits('FREE')).toMatchObject({ documentCharacters: 0 });
  });
});
