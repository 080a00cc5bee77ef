import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import {
  CheckoutTypeSchema,
  canInsertTag,
  checkoutPlanType,
  countCharacters,
  PaymentFormSchema,
  PaymentInputSchema,
  PaymentQuerySchema,
  PlanInfoSchema,
  parseCheckoutType,
  planInfoKey,
} from './plan.js';

describe('PlanInfoSchema', () => {
  const price = {
    price: 9.99,
    count_characters: 100000,
    count_characters_per_convert: 5000,
    storage_bytes: 0,
    engines: ['neural' as const],
  };

  it('accepts the four plans and refuses a missing one or a negative price', () => {
    const info = { free: { ...price, price: 0 }, basic: price, premium: price, business: price };
    expect(PlanInfoSchema.parse(info).free.price).toBe(0);
    expect(PlanInfoSchema.safeParse({ ...info, business: undefined }).success).toBe(false);
    expect(PlanInfoSchema.safeParse({ ...info, basic: { ...price, price: -1 } }).success).toBe(
      false,
    );
    expect(planInfoKey('PREMIUM')).toBe('premium');
  });
});

describe('checkout type', () => {
  it.each([
    ['basic', 'basic'],
    ['Premium', 'premium'],
    ['BUSINESS', 'business'],
  ])('accepts %s in any case', (input, expected) => {
    expect(CheckoutTypeSchema.parse(input)).toBe(expected);
    expect(parseCheckoutType(input)).toBe(expected);
  });

  it.each([['free'], ['gold'], [''], [null], [undefined]])('refuses %j', (input) => {
    expect(parseCheckoutType(input)).toBeUndefined();
  });

  it('maps to the plan type the payment call takes', () => {
    expect(checkoutPlanType('premium')).toBe('PREMIUM');
  });
});

describe('payment', () => {
  it('parses is_update_card from the query string', () => {
    expect(PaymentQuerySchema.parse({ is_update_card: 'true' })).toEqual({ is_update_card: true });
    expect(PaymentQuerySchema.parse({ is_update_card: 'false' })).toEqual({
      is_update_card: false,
    });
    expect(PaymentQuerySchema.parse({})).toEqual({ is_update_card: false });
    expect(PaymentQuerySchema.safeParse({ is_update_card: 'perhaps' }).success).toBe(false);
  });

  it('accepts a new card with a name, or the saved card with none', () => {
    expect(
      PaymentInputSchema.safeParse({
        token: 'tok_123',
        name_on_card: 'Ann Smith Jones',
        type: 'BASIC',
      }).success,
    ).toBe(true);
    expect(
      PaymentInputSchema.safeParse({ token: null, name_on_card: null, type: 'BUSINESS' }).success,
    ).toBe(true);
  });

  it('refuses the free plan and a new card without a proper name', () => {
    expect(
      PaymentInputSchema.safeParse({ token: null, name_on_card: null, type: 'FREE' }).success,
    ).toBe(false);
    expect(
      messagesOf(PaymentInputSchema, { token: 'tok_1', name_on_card: 'Ann', type: 'BASIC' }),
    ).toEqual({
      name_on_card: ['Name on card must be at least 10 characters long.'],
    });
    expect(
      messagesOf(PaymentInputSchema, { token: 'tok_1', name_on_card: null, type: 'BASIC' }),
    ).toEqual({
      name_on_card: ['Name on card is required.'],
    });
  });

  it('the checkout form checks the name on card', () => {
    expect(messagesOf(PaymentFormSchema, { name_on_card: '' })).toEqual({
      name_on_card: ['Name on card is required.'],
    });
    expect(PaymentFormSchema.parse({ name_on_card: ' Ann Smith Jones ' })).toEqual({
      name_on_card: 'Ann Smith Jones',
    });
  });
});

describe('tag costs against remaining characters', () => {
  it('allows a tag only when enough characters remain', () => {
    expect(canInsertTag('sayAs', 45)).toBe(true);
    expect(canInsertTag('sayAs', 44)).toBe(false);
    expect(canInsertTag('pause', 19)).toBe(true);
    expect(canInsertTag('pause', 18)).toBe(false);
  });
});

describe('countCharacters', () => {
  it('counts code points of the text as sent, markup included', () => {
    expect(countCharacters('')).toBe(0);
    expect(countCharacters('Hello')).toBe(5);
    expect(countCharacters('<break time="1s"/>')).toBe(18);
    expect(countCharacters('café 👋')).toBe(6);
    expect(countCharacters('a\nb')).toBe(3);
  });
});
