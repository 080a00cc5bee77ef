import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import {
  ADMIN_OVERVIEW_MESSAGES,
  AdminOverviewQuerySchema,
  addDays,
  daysBetween,
  overviewPeriod,
} from './admin-overview.js';

describe("the console overview's period", () => {
  it('fills the gaps: to is today (UTC), from the 30 days up to to', () => {
    const now = new Date('2026-03-01T23:30:00.000Z');
    expect(overviewPeriod({}, now)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(overviewPeriod({ to: '2026-01-10' }, now)).toEqual({
      from: '2025-12-12',
      to: '2026-01-10',
    });
    expect(overviewPeriod({ from: '2026-02-20' }, now)).toEqual({
      from: '2026-02-20',
      to: '2026-03-01',
    });
    expect(daysBetween('2026-01-31', '2026-03-01')).toBe(30);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('takes real calendar days only, in order, at most 366 of them, naming the field', () => {
    const date = (field: 'from' | 'to') => [ADMIN_OVERVIEW_MESSAGES.date(field)];
    expect(messagesOf(AdminOverviewQuerySchema, { from: '2028-02-29', to: '2028-03-01' })).toEqual(
      {},
    );
    expect(messagesOf(AdminOverviewQuerySchema, { from: '2026-02-29' })).toEqual({
      from: date('from'),
    });
    expect(messagesOf(AdminOverviewQuerySchema, { to: '2026-1-01' })).toEqual({ to: date('to') });
    expect(messagesOf(AdminOverviewQuerySchema, { from: '2026-05-02', to: '2026-05-01' })).toEqual({
      from: [ADMIN_OVERVIEW_MESSAGES.order],
    });
    expect(messagesOf(AdminOverviewQuerySchema, { from: '2024-01-01', to: '2024-12-31' })).toEqual(
      {},
    );
    expect(messagesOf(AdminOverviewQuerySchema, { from: '2024-01-01', to: '2025-01-01' })).toEqual({
      from: [ADMIN_OVERVIEW_MESSAGES.tooLong],
    });
  });
});
