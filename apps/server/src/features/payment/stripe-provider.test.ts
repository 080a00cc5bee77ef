import { IDEMPOTENCY_KEY_MESSAGE, MESSAGES, PaymentConfigSchema } from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeStripe } from '../../../test/fake-stripe-server.js';
import { paymentCalls } from '../../../test/payments.js';
import { createTestApp, signedInUser, testConfig } from '../../../test/test-app.js';
import { PLAN_DEFAULTS } from '../../services/plans/plan-catalogue.js';

const WEBHOOK_SECRET = 'whsec_parla_test_secret';
const stripe = await startFakeStripe();
afterAll(() => stripe.close());
const app = await createTestApp({
  config: testConfig({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_parla',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
  }),
});
const plans = PLAN_DEFAULTS;

const { profile, pay } = paymentCalls(app);

const chargesOf = (customer: string | null) =>
  stripe.charges.filter((charge) => {
    const intent = stripe.paymentIntents.get(String(charge.payment_intent));
    return intent?.customer === customer;
  });

async function userRow(id: string) {
  return app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

function webhook(payload: string, signature: string) {
  return app.inject({
    method: 'POST',
    url: '/api/plan/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
}

describe('payments through the official Stripe SDK (local Stripe-shaped server)', () => {
  it('gives the checkout page the publishable key', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/plan/payment/config' });
    expect(PaymentConfigSchema.parse(response.json())).toEqual({
      provider: 'stripe',
      publishable_key: 'pk_test_parla',
    });
  });

  it('creates the customer, attaches the card as default and charges the plan price', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const response = await pay(authorization, {
      token: 'tok_visa',
      name_on_card: 'Grace Brewster Hopper',
      type: 'PREMIUM',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(MESSAGES.checkout.paymentSuccess);

    const row = await userRow(user.id);
    const customer = stripe.customers.get(row.payment_customer_id ?? '');
    expect(customer?.email).toBe(user.email);
    expect(customer?.invoice_settings).toEqual({ default_payment_method: row.payment_method_id });
    expect(stripe.paymentMethods.get(row.payment_method_id ?? '')?.customer).toBe(customer?.id);
    const charges = chargesOf(row.payment_customer_id);
    expect(charges).toHaveLength(1);
    expect(charges[0]?.amount).toBe(Math.round(plans.PREMIUM.price * 100));
    // Every creating call carried an idempotency key.
    const posts = stripe.requests.filter((r) => r.method === 'POST');
    expect(posts.every((r) => r.idempotencyKey)).toBe(true);

    const after = await profile(authorization);
    expect(after.plan.type).toBe('PREMIUM');
    expect(after.plan.count_characters).toBe(
      user.count_characters + plans.PREMIUM.count_characters,
    );
    expect(after.user.card).toMatchObject({
      brand: 'Visa',
      last4: '4242',
      exp_month: 12,
      name: 'Grace Brewster Hopper',
    });
    expect(after.user.metadata.has_payment_method_added).toBe(true);
  });

  it('reuses the saved card and the same customer when the token is null; updates the card', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    await pay(authorization, {
      token: 'tok_visa',
      name_on_card: 'Grace Brewster Hopper',
      type: 'BASIC',
    });
    const first = await userRow(user.id);

    const saved = await pay(authorization, { token: null, name_on_card: null, type: 'BASIC' });
    expect(saved.statusCode).toBe(200);
    const second = await userRow(user.id);
    expect(second.payment_customer_id).toBe(first.payment_customer_id);
    expect(chargesOf(first.payment_customer_id)).toHaveLength(2);
    const lastIntent = [...stripe.paymentIntents.values()].at(-1);
    expect(lastIntent?.payment_method).toBe(first.payment_method_id);

    const updated = await pay(
      authorization,
      { token: 'tok_mastercard', name_on_card: 'Grace B. Hopper Navy', type: 'BUSINESS' },
      { isUpdateCard: true },
    );
    expect(updated.statusCode).toBe(200);
    const third = await userRow(user.id);
    expect(third.payment_method_id).not.toBe(first.payment_method_id);
    expect(stripe.customers.get(third.payment_customer_id ?? '')?.invoice_settings).toEqual({
      default_payment_method: third.payment_method_id,
    });
    const after = await profile(authorization);
    expect(after.user.card).toMatchObject({
      brand: 'MasterCard',
      last4: '4444',
      name: 'Grace B. Hopper Navy',
    });
    expect(after.plan.type).toBe('BUSINESS');
    // Updating the card needs a card.
    const noCard = await pay(
      authorization,
      { token: null, name_on_card: null, type: 'BASIC' },
      { isUpdateCard: true },
    );
    expect(noCard.statusCode).toBe(400);
  });

  it('a declined card (card_declined) changes no plan and saves no card', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const response = await pay(authorization, {
      token: 'tok_chargeDeclined',
      name_on_card: 'Grace Brewster Hopper',
      type: 'BASIC',
    });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toBe('Your card was declined.');
    const after = await profile(authorization);
    expect(after.plan.type).toBe('FREE');
    expect(after.plan.count_characters).toBe(user.count_characters);
    expect(after.user.card).toBeNull();
    expect((await userRow(user.id)).payment_method_id).toBeNull();
  });

  it('a card that needs authentication (authentication_required) fails with its message', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const response = await pay(authorization, {
      token: 'tok_threeDSecureRequired',
      name_on_card: 'Grace Brewster Hopper',
      type: 'BASIC',
    });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toMatch(/requires authentication/);
    expect((await profile(authorization)).plan.type).toBe('FREE');
  });

  it('twenty identical payments at once with one key reach Stripe as one charge', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: 'tok_visa', name_on_card: 'Grace Brewster Hopper', type: 'BASIC' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => pay(authorization, body, { key: 'double-click-stripe-1' })),
    );
    const through = answers.filter((answer) => answer.statusCode !== 429);
    expect(through.length).toBeGreaterThan(1);
    expect(through.map((answer) => answer.json().status)).toEqual(
      Array(through.length).fill('succeeded'),
    );
    const row = await userRow(user.id);
    expect(chargesOf(row.payment_customer_id)).toHaveLength(1);
    expect(row.count_characters).toBe(user.count_characters + plans.BASIC.count_characters);
  });

  it('refuses a malformed Idempotency-Key before calling Stripe', async () => {
    const { authorization } = await signedInUser(app, { billing: true });
    const before = stripe.requests.length;
    const body = { token: 'tok_visa', name_on_card: 'Grace Brewster Hopper', type: 'BASIC' };
    const response = await pay(authorization, body, { key: 'short' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(IDEMPOTENCY_KEY_MESSAGE);
    expect(stripe.requests.length).toBe(before);
  });

  it('a payment without an Idempotency-Key, sent twice, charges the card once', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const body = { token: 'tok_visa', name_on_card: 'Grace Brewster Hopper', type: 'BASIC' };
    const first = await pay(authorization, body, { key: null });
    const second = await pay(authorization, body, { key: null });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const row = await userRow(user.id);
    expect(chargesOf(row.payment_customer_id)).toHaveLength(1);
    expect(row.count_characters).toBe(user.count_characters + plans.BASIC.count_characters);
  });

  it('an answer lost on the way is retried with the same key and charged once', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    // Stripe charges, the answer is lost; the SDK retries with the same idempotency key.
    stripe.dropNextAnswer('/v1/payment_intents');
    const response = await pay(
      authorization,
      { token: 'tok_visa', name_on_card: 'Grace Brewster Hopper', type: 'BASIC' },
      { key: 'checkout-attempt-lost-answer' },
    );
    expect(response.statusCode).toBe(200);
    // The browser retries the same attempt too: still one charge, one credit.
    const again = await pay(
      authorization,
      { token: 'tok_visa', name_on_card: 'Grace Brewster Hopper', type: 'BASIC' },
      { key: 'checkout-attempt-lost-answer' },
    );
    expect(again.statusCode).toBe(200);
    const row = await userRow(user.id);
    expect(chargesOf(row.payment_customer_id)).toHaveLength(1);
    expect(row.count_characters).toBe(user.count_characters + plans.BASIC.count_characters);
  });

  it('settles a processing payment from a signed webhook, once, and refuses a bad signature', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    stripe.asyncCharges = true;
    try {
      const response = await pay(authorization, {
        token: 'tok_visa',
        name_on_card: 'Grace Brewster Hopper',
        type: 'BASIC',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().status).toBe('pending');
    } finally {
      stripe.asyncCharges = false;
    }
    expect((await profile(authorization)).plan.type).toBe('FREE');

    const payment = await app.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const intent = stripe.settle(payment.provider_payment_id ?? '');
    const forged = stripe.signedEvent('payment_intent.succeeded', intent, 'whsec_someone_else');
    const refused = await webhook(forged.payload, forged.signature);
    expect(refused.statusCode).toBe(400);
    expect((await profile(authorization)).plan.type).toBe('FREE');

    const real = stripe.signedEvent('payment_intent.succeeded', intent, WEBHOOK_SECRET);
    expect((await webhook(real.payload, real.signature)).statusCode).toBe(200);
    // Stripe may deliver an event more than once.
    expect((await webhook(real.payload, real.signature)).statusCode).toBe(200);
    const after = await profile(authorization);
    expect(after.plan.type).toBe('BASIC');
    expect(after.plan.count_characters).toBe(user.count_characters + plans.BASIC.count_characters);
    expect(after.user.card).toMatchObject({ brand: 'Visa', last4: '4242' });
  });
});
