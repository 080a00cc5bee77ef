import { describe, expect, it } from 'vitest';
import { ADMIN_PLAN_MESSAGES, AdminPlanTermsInputSchema, isPrice } from './admin-plans.js';

const terms = {
  price: 9,
  count_characters: 500_000,
  count_characters_per_convert: 5_000,
  storage_bytes: 1024,
  engines: ['neural', 'standard'],
};

const messages = (input: object) =>
  AdminPlanTermsInputSchema.safeParse(input).error?.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  })) ?? [];

describe('a plan’s terms (PUT /api/admin/plans/{type})', () => {
  it('takes dollars with cents, never fractions of a cent or below zero', () => {
    expect([0, 9, 9.5, 9.99, 0.07, 1234.56].every(isPrice)).toBe(true);
    expect([9.999, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e12].some(isPrice)).toBe(false);
  });

  it('accepts whole terms and names each wrong field', () => {
    expect(AdminPlanTermsInputSchema.parse(terms)).toEqual(terms);
    expect(messages({ ...terms, count_characters_per_convert: 500_001 })).toEqual([
      { path: 'count_characters_per_convert', message: ADMIN_PLAN_MESSAGES.perConvert },
    ]);
    expect(messages({ ...terms, engines: ['neural', 'neural'] })).toEqual([
      { path: 'engines', message: ADMIN_PLAN_MESSAGES.engines },
    ]);
    expect(messages({ ...terms, storage_bytes: 0.5, price: '9' })).toEqual([
      { path: 'price', message: ADMIN_PLAN_MESSAGES.price },
      { path: 'storage_bytes', message: ADMIN_PLAN_MESSAGES.whole('storage_bytes') },
    ]);
  });
});
