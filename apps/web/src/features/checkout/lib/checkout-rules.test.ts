import type { ProfileUser } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { BILLED, profileOf } from '../../../test/profile';
import { canPay, EMPTY_CARD, isBillingFilled, needsCardEntry } from './checkout-rules';

const user = (change: Partial<ProfileUser> = {}): ProfileUser =>
  profileOf({ user: { ...BILLED, ...change } }).user;

const good = { empty: false, complete: true };

describe('checkout rules (SPEC §5 Checkout)', () => {
  it('billing is filled with name, phone, country, city and line 1; state, line 2 and postcode may be empty', () => {
    expect(isBillingFilled(user())).toBe(true);
    expect(isBillingFilled(user({ name: null }))).toBe(false);
    expect(isBillingFilled(user({ phone: '  ' }))).toBe(false);
    for (const key of ['country', 'city', 'line1'] as const) {
      expect(isBillingFilled(user({ address: { ...user().address, [key]: null } }))).toBe(false);
    }
  });

  it('asks for a card only without a saved payment method or while editing the card', () => {
    expect(needsCardEntry(false, false)).toBe(true);
    expect(needsCardEntry(true, false)).toBe(false);
    expect(needsCardEntry(true, true)).toBe(true);
  });

  it('enables pay only when billing, form and card are all valid', () => {
    const base = {
      billingFilled: true,
      needsCard: true,
      formValid: true,
      card: good,
      submitting: false,
    };
    expect(canPay(base)).toBe(true);
    expect(canPay({ ...base, billingFilled: false })).toBe(false);
    expect(canPay({ ...base, formValid: false })).toBe(false);
    expect(canPay({ ...base, card: EMPTY_CARD })).toBe(false);
    expect(
      canPay({
        ...base,
        card: { empty: false, complete: false, error: 'Your card number is invalid.' },
      }),
    ).toBe(false);
    expect(canPay({ ...base, card: { empty: false, complete: false } })).toBe(false);
    expect(canPay({ ...base, submitting: true })).toBe(false);
  });

  it('with the saved card, needs only the billing details', () => {
    const saved = {
      billingFilled: true,
      needsCard: false,
      formValid: false,
      card: EMPTY_CARD,
      submitting: false,
    };
    expect(canPay(saved)).toBe(true);
    expect(canPay({ ...saved, billingFilled: false })).toBe(false);
  });
});
