import { describe, expect, it } from 'vitest';
import {
  cardBrandName,
  checkTestCard,
  decodeTestCardToken,
  encodeTestCardToken,
  IDEMPOTENCY_KEY_MESSAGE,
  invoiceNumber,
  luhnValid,
  PaymentHeadersSchema,
  TEST_CARD_MESSAGES,
} from './payment.js';

const NOW = new Date('2026-11-23T12:00:00Z');

describe('test cards', () => {
  it('checks numbers with Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242 4242 4242 4242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('42')).toBe(false);
  });

  it('accepts only known test numbers with a future expiry and a CVC', () => {
    const ok = checkTestCard({ number: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }, NOW);
    expect(ok).toEqual({
      ok: true,
      card: { number: '4242424242424242', brand: 'Visa', exp_month: 12, exp_year: 2034 },
    });
    const check = (number: string, expiry = '12/34', cvc = '123') =>
      checkTestCard({ number, expiry, cvc }, NOW);
    expect(check('4242424242424241')).toEqual({
      ok: false,
      message: TEST_CARD_MESSAGES.numberInvalid,
    });
    expect(check('4111111111111111')).toEqual({
      ok: false,
      message: TEST_CARD_MESSAGES.notATestCard,
    });
    expect(check('4242424242424242', '13/34')).toEqual({
      ok: false,
      message: TEST_CARD_MESSAGES.expiryInvalid,
    });
    expect(check('4242424242424242', '10/26')).toEqual({
      ok: false,
      message: TEST_CARD_MESSAGES.expired,
    });
    expect(check('4242424242424242', '11/26').ok).toBe(true);
    expect(check('4242424242424242', '12/34', '12')).toEqual({
      ok: false,
      message: TEST_CARD_MESSAGES.cvcInvalid,
    });
    expect(check('378282246310005', '12/34', '1234').ok).toBe(true);
  });

  it('round-trips the test token and refuses anything else', () => {
    const card = {
      number: '4000000000000002',
      brand: 'Visa' as const,
      exp_month: 3,
      exp_year: 2030,
    };
    expect(decodeTestCardToken(encodeTestCardToken(card))).toEqual(card);
    expect(decodeTestCardToken('tok_visa')).toBeUndefined();
    expect(decodeTestCardToken('tok_test_4111111111111111.1.2030')).toBeUndefined();
  });

  it("names Stripe's brands as SPEC §9 lists them", () => {
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('diners')).toBe('Diners Club');
  });
});

describe('POST /plan/payment headers (issue 13 item 6)', () => {
  it('takes an optional Idempotency-Key and names it when malformed', () => {
    expect(PaymentHeadersSchema.parse({ 'idempotency-key': 'attempt-0001' })).toEqual({
      'idempotency-key': 'attempt-0001',
    });
    expect(PaymentHeadersSchema.parse({})).toEqual({});
    for (const headers of [
      { 'idempotency-key': 'short' },
      { 'idempotency-key': 'a b c d e f g h' },
    ]) {
      const result = PaymentHeadersSchema.safeParse(headers);
      expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
        [['idempotency-key'], IDEMPOTENCY_KEY_MESSAGE],
      ]);
    }
  });

  it('numbers invoices PARLA-000001, PARLA-000002, …', () => {
    expect(invoiceNumber(1)).toBe('PARLA-000001');
    expect(invoiceNumber(1234567)).toBe('PARLA-1234567');
  });
});
