import * as z from 'zod/mini';
import { CARD_BRANDS, type CardBrand } from './constants.js';

/**
 * What the checkout page needs to know about the payment provider: Stripe (its Elements field,
 * with the publishable key) or the built-in test provider (its own card field, test cards only).
 */
export const PaymentConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('stripe'), publishable_key: z.string().check(z.minLength(1)) }),
  z.object({ provider: z.literal('test') }),
]);
export type PaymentConfig = z.infer<typeof PaymentConfigSchema>;

/** The answer of POST /plan/payment: SPEC shows none but the message, so a message it is. */
export const PaymentResultSchema = z.object({
  message: z.string(),
  status: z.enum(['succeeded', 'pending']),
});
export type PaymentResult = z.infer<typeof PaymentResultSchema>;

/** Header carrying the client's attempt id: a retry of the same attempt never charges twice. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const IDEMPOTENCY_KEY_MESSAGE =
  'The Idempotency-Key header is one key per purchase attempt: 8 to 200 letters, digits or _ : . -';

/**
 * POST /plan/payment's headers: the attempt id, so that no client charges twice by sending the
 * same purchase again (issue 13 item 6). Without one the server derives it from the user, the
 * plan, the card and the minute (SPEC §7's call has no header). Names arrive in lower case.
 */
export const PaymentHeadersSchema = z.object({
  'idempotency-key': z.optional(
    z
      .string({ error: IDEMPOTENCY_KEY_MESSAGE })
      .check(z.regex(/^[\w:.-]{8,200}$/, { error: IDEMPOTENCY_KEY_MESSAGE })),
  ),
});
export type PaymentHeaders = z.infer<typeof PaymentHeadersSchema>;

/** The number printed on an invoice: sequential per installation (PARLA-000001, …). */
export function invoiceNumber(sequence: number): string {
  return `PARLA-${String(sequence).padStart(6, '0')}`;
}

// The built-in test provider ------------------------------------------------------------------

/** True when the digits pass the Luhn checksum (ISO/IEC 7812-1). */
export function luhnValid(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12 || digits.length > 19 || digits !== number.replace(/[\s-]/g, '')) {
    return false;
  }
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type TestCardOutcome = 'succeeds' | 'declined' | 'insufficient_funds';

/**
 * The cards the test provider knows, numbers as in Stripe's testing guide
 * (https://docs.stripe.com/testing#cards). No other number is accepted, so a real card can
 * never be typed into a product running without a payment provider.
 */
export const TEST_CARDS: Record<string, { brand: CardBrand; outcome: TestCardOutcome }> = {
  '4242424242424242': { brand: 'Visa', outcome: 'succeeds' },
  '5555555555554444': { brand: 'MasterCard', outcome: 'succeeds' },
  '378282246310005': { brand: 'American Express', outcome: 'succeeds' },
  '4000000000000002': { brand: 'Visa', outcome: 'declined' },
  '4000000000009995': { brand: 'Visa', outcome: 'insufficient_funds' },
};

export const TEST_CARD_MESSAGES = {
  numberInvalid: 'Your card number is invalid.',
  notATestCard: 'Test mode: use a test card such as 4242 4242 4242 4242.',
  expiryInvalid: "Your card's expiration date is invalid.",
  expired: "Your card's expiration date is in the past.",
  cvcInvalid: "Your card's security code is invalid.",
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
} as const;

export interface TestCardInput {
  number: string;
  /** MM/YY as typed. */
  expiry: string;
  cvc: string;
}

export interface TestCard {
  number: string;
  brand: CardBrand;
  exp_month: number;
  exp_year: number;
}

/** Checks a test card as a card field would; answers the card or the first problem's message. */
export function checkTestCard(
  input: TestCardInput,
  now = new Date(),
): { ok: true; card: TestCard } | { ok: false; message: string } {
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(number) || !luhnValid(number)) {
    return { ok: false, message: TEST_CARD_MESSAGES.numberInvalid };
  }
  const known = TEST_CARDS[number];
  if (!known) return { ok: false, message: TEST_CARD_MESSAGES.notATestCard };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry);
  const month = Number(expiry?.[1]);
  if (!expiry || month < 1 || month > 12) {
    return { ok: false, message: TEST_CARD_MESSAGES.expiryInvalid };
  }
  const rawYear = Number(expiry[2]);
  const year = rawYear < 100 ? 2000 + rawYear : rawYear;
  if (year * 12 + month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
    return { ok: false, message: TEST_CARD_MESSAGES.expired };
  }
  const cvcLength = known.brand === 'American Express' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) {
    return { ok: false, message: TEST_CARD_MESSAGES.cvcInvalid };
  }
  return { ok: true, card: { number, brand: known.brand, exp_month: month, exp_year: year } };
}

const TEST_TOKEN_PREFIX = 'tok_test_';

/**
 * The test provider's card token, made in the browser as Stripe.js makes one: it carries the
 * test card itself (only test numbers exist in this mode, so there is nothing to hide).
 */
export function encodeTestCardToken(card: TestCard): string {
  const payload = `${card.number}.${card.exp_month}.${card.exp_year}`;
  return `${TEST_TOKEN_PREFIX}${payload}`;
}

export function decodeTestCardToken(token: string): TestCard | undefined {
  if (!token.startsWith(TEST_TOKEN_PREFIX)) return undefined;
  const [number = '', month, year] = token.slice(TEST_TOKEN_PREFIX.length).split('.');
  const known = TEST_CARDS[number];
  const exp_month = Number(month);
  const exp_year = Number(year);
  if (!known || !luhnValid(number) || !Number.isInteger(exp_month) || !Number.isInteger(exp_year)) {
    return undefined;
  }
  if (exp_month < 1 || exp_month > 12) return undefined;
  return { number, brand: known.brand, exp_month, exp_year };
}

/** Stripe's brand names ('visa', 'amex', …) as SPEC §9 lists them. */
export function cardBrandName(brand: string): string {
  const names: Record<string, CardBrand> = {
    visa: 'Visa',
    mastercard: 'MasterCard',
    amex: 'American Express',
    discover: 'Discover',
    jcb: 'JCB',
    diners: 'Diners Club',
    unionpay: 'UnionPay',
  };
  const known = CARD_BRANDS.find((name) => name.toLowerCase() === brand.toLowerCase());
  return names[brand.toLowerCase()] ?? known ?? brand;
}
