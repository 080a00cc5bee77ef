import {
  encodeTestCardToken,
  IDEMPOTENCY_KEY_MESSAGE,
  invoiceNumber,
  MESSAGES,
  PaymentConfigSchema,
  type TestCard,
} from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { paymentCalls } from '../../../test/payments.js';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { PLAN_DEFAULTS } from '../../services/plans/plan-catalogue.js';
import { PAYMENT_ROUTE_MESSAGES } from './routes.js';

// No STRIPE_SECRET_KEY: the built-in test provider. Invoices go to a real SMTP server.
const smtp = await startSmtpServer();
const app = await createTestApp({ config: testConfig({ SMTP_URL: smtp.url }) });
const plans = PLAN_DEFAULTS;

const card = (number: string): TestCard => ({
  number,
  brand: 'Visa',
  exp_month: 12,
  exp_year: 2099,
});
const VISA = encodeTestCardToken(card('4242424242424242'));
const DECLINED = encodeTestCardToken(card('4000000000000002'));

const { profile, pay, payments: paymentsOf } = paymentCalls(app);

describe(`payments with the built-in test provider (${TEST_DATABASE_KIND})`, () => {
  it('refuses to charge (403) until the billing details an invoice needs are saved', async () => {
    const { authorization } = await signedInUser(app);
    const before = await profile(authorization);
    const response = await pay(authorization, {
      token: VISA,
      name_on_card: 'Ada Lovelace Ltd',
      type: 'BASIC',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: PAYMENT_ROUTE_MESSAGES.billingMissing });
    expect(await profile(authorization)).toEqual(before);
  });

  it('tells the checkout page it is in test mode', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/plan/payment/config' });
    expect(PaymentConfigSchema.parse(response.json())).toEqual({ provider: 'test' });
  });

  it('buys BASIC with 4242 4242 4242 4242: plan, characters and card change together', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const before = await profile(authorization);
    const response = await pay(authorization, {
      token: VISA,
      name_on_card: 'Ada Lovelace King',
      type: 'BASIC',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'succeeded',
      message: MESSAGES.checkout.paymentSuccess,
    });
    const after = await profile(authorization);
    expect(after.plan).toEqual({
      type: 'BASIC',
      period: 'month',
      count_characters: before.plan.count_characters + plans.BASIC.count_characters,
      count_characters_per_convert: plans.BASIC.count_characters_per_convert,
      count_characters_added: plans.BASIC.count_characters,
      count_characters_allowance: plans.BASIC.count_characters,
      engines: plans.BASIC.engines,
    });
    expect(after.user.card).toEqual({
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      exp_year: 2099,
      name: 'Ada Lovelace King',
    });
    expect(after.user.metadata.has_payment_method_added).toBe(true);
  });

  it('declines 4000 0000 0000 0002 and changes nothing', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const response = await pay(authorization, {
      token: DECLINED,
      name_on_card: 'Ada Lovelace King',
      type: 'PREMIUM',
    });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toBe('Your card was declined.');
    const after = await profile(authorization);
    expect(after.plan.type).toBe('FREE');
    expect(after.plan.count_characters).toBe(user.count_characters);
    expect(after.user.card).toBeNull();
    expect(after.user.metadata.has_payment_method_added).toBe(false);
    const rows = await app.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((row) => row.status)).toEqual(['failed']);
  });

  it('refuses a number that is not a test card, and a short name on the card', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const notTest = await pay(authorization, {
      token: 'tok_test_4111111111111112.12.2099',
      name_on_card: 'Ada Lovelace King',
      type: 'BASIC',
    });
    expect(notTest.statusCode).toBe(400);
    const shortName = await pay(authorization, { token: VISA, name_on_card: 'Ada', type: 'BASIC' });
    expect(shortName.statusCode).toBe(400);
    expect(shortName.json().message).toBe(MESSAGES.checkout.nameOnCardMin);
    expect((await profile(authorization)).plan.type).toBe('FREE');
  });

  it('pays with the saved card when the token is null, and needs one to be saved', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const none = await pay(authorization, { token: null, name_on_card: null, type: 'BASIC' });
    expect(none.statusCode).toBe(400);
    await pay(authorization, { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BASIC' });
    const again = await pay(authorization, { token: null, name_on_card: null, type: 'PREMIUM' });
    expect(again.statusCode).toBe(200);
    const after = await profile(authorization);
    expect(after.plan.type).toBe('PREMIUM');
    expect(after.plan.count_characters_added).toBe(
      plans.BASIC.count_characters + plans.PREMIUM.count_characters,
    );
  });

  it('a retried attempt (same Idempotency-Key) is charged and credited once', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BUSINESS' };
    const first = await pay(authorization, body, { key: 'attempt-0001-abcdef' });
    const second = await pay(authorization, body, { key: 'attempt-0001-abcdef' });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const after = await profile(authorization);
    expect(after.plan.count_characters).toBe(
      user.count_characters + plans.BUSINESS.count_characters,
    );
    const rows = await app.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a malformed Idempotency-Key (400 naming it) and charges nothing', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BASIC' };
    for (const key of ['short', 'has spaces in it']) {
      const response = await pay(authorization, body, { key });
      expect(response.statusCode, String(key)).toBe(400);
      expect(response.json().message).toBe(IDEMPOTENCY_KEY_MESSAGE);
      expect(response.json().errors).toEqual([
        { path: 'idempotency-key', message: IDEMPOTENCY_KEY_MESSAGE },
      ]);
    }
    expect(await paymentsOf(user.id)).toEqual([]);
    expect((await profile(authorization)).plan.type).toBe('FREE');
  });

  it('a payment without an Idempotency-Key is charged once however often Pay is clicked', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BASIC' };
    const first = await pay(authorization, body, { key: null });
    expect(first.statusCode).toBe(200);
    expect(first.json().status).toBe('succeeded');
    // Pay again after "Payment successful!": the same attempt, answered as it was.
    const again = await pay(authorization, body, { key: null });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect((await paymentsOf(user.id)).map((row) => row.status)).toEqual(['succeeded']);
    expect((await profile(authorization)).plan.type).toBe('BASIC');
    // Another plan is another attempt.
    const premium = await pay(authorization, { ...body, type: 'PREMIUM' }, { key: null });
    expect(premium.statusCode).toBe(200);
    expect(await paymentsOf(user.id)).toHaveLength(2);
  });

  it('twenty identical payments at once with one key: one payment, one credit, one invoice', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: VISA, name_on_card: 'Ada Lovelace King', type: 'PREMIUM' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => pay(authorization, body, { key: 'double-click-0001' })),
    );
    // The payment route's rate limit may turn some away (429); every one let through answers
    // as the one charge did.
    const through = answers.filter((answer) => answer.statusCode !== 429);
    expect(through.length).toBeGreaterThan(1);
    expect(through.map((answer) => answer.statusCode)).toEqual(Array(through.length).fill(200));
    expect(new Set(through.map((answer) => answer.json().status))).toEqual(new Set(['succeeded']));
    const after = await profile(authorization);
    expect(after.plan.count_characters).toBe(
      user.count_characters + plans.PREMIUM.count_characters,
    );
    expect((await paymentsOf(user.id)).map((row) => row.status)).toEqual(['succeeded']);
    const invoices = await app.db
      .selectFrom('invoices')
      .select('number')
      .where('user_id', '=', user.id)
      .execute();
    expect(invoices).toHaveLength(1);
  });

  it('mails an invoice after every successful payment, numbered in sequence', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    await app.db
      .updateTable('users')
      .set({ address_postal_code: 'EC1R 0AT', tax_type: 'gb_vat', tax_code: 'GB123456789' })
      .where('id', '=', user.id)
      .execute();
    const body = { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BASIC' };
    expect((await pay(authorization, body)).statusCode).toBe(200);
    const first = await smtp.mailTo(user.email);
    expect((await pay(authorization, { ...body, token: null, type: 'BUSINESS' })).statusCode).toBe(
      200,
    );
    const second = await smtp.mailTo(user.email);

    const stored = await app.db
      .selectFrom('invoices')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('number')
      .execute();
    expect(stored.map((row) => row.plan_type)).toEqual(['BASIC', 'BUSINESS']);
    const [one, two] = stored.map((row) => invoiceNumber(row.number));
    expect(first.subject).toBe(`Your Parla invoice ${one}`);
    expect(second.subject).toBe(`Your Parla invoice ${two}`);
    const today = new Date().toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    for (const line of [
      `Invoice number: ${one}`,
      `Date: ${today}`,
      'Plan: BASIC, 500,000 characters, up to 5,000 per conversion',
      `Amount: ${plans.BASIC.price.toFixed(2)} USD`,
      'Billed to: Ada Lovelace, 1 Analytical Row, EC1R 0AT London, United Kingdom, +44 20 7946 0000',
      'Tax id: GB VAT GB123456789',
    ]) {
      expect(first.text).toContain(line);
    }
    expect(first.html).toContain(`Invoice ${one}`);
    expect(second.text).toContain(`Amount: ${plans.BUSINESS.price.toFixed(2)} USD`);
    // Sequential per installation: every number from 1 up, none twice, none skipped.
    const all = await app.db.selectFrom('invoices').select('number').orderBy('number').execute();
    expect(all.map((row) => row.number)).toEqual(all.map((_, index) => index + 1));

    // Invoices are accounting records: deleting the account keeps them, detached from it.
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/account/delete',
      headers: { authorization, 'x-requested-with': 'parla' },
    });
    expect(deleted.statusCode).toBe(200);
    const kept = await app.db
      .selectFrom('invoices')
      .selectAll()
      .where(
        'number',
        'in',
        stored.map((row) => row.number),
      )
      .execute();
    expect(kept.map((row) => [row.user_id, row.payment_id, row.billing])).toEqual(
      stored.map((row) => [null, null, row.billing]),
    );
  });

  it('needs a signed-in user', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/plan/payment',
      payload: { token: VISA, name_on_card: 'Ada Lovelace King', type: 'BASIC' },
    });
    expect(response.statusCode).toBe(401);
  });
});
