import { describe, expect, it } from 'vitest';
import { planAction } from './plan-action';

describe('planAction', () => {
  it('signed out: Free starts, a paid plan is chosen (through login)', () => {
    expect(planAction('FREE', undefined)).toBe('start');
    expect(planAction('PREMIUM', undefined)).toBe('choose');
  });

  it('signed in: up is an upgrade, down a change, the same plan bought again, Free never', () => {
    expect(planAction('BASIC', 'FREE')).toBe('upgrade');
    expect(planAction('BUSINESS', 'PREMIUM')).toBe('upgrade');
    expect(planAction('BASIC', 'PREMIUM')).toBe('change');
    expect(planAction('PREMIUM', 'PREMIUM')).toBe('renew');
    expect(planAction('FREE', 'FREE')).toBe('none');
    expect(planAction('FREE', 'BUSINESS')).toBe('none');
  });
});
