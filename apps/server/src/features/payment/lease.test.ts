import { randomUUID } from 'node:crypto';
import { encodeTestCardToken, MESSAGES } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { priceInCents } from '../../services/plans/plan-catalogue.js';
import { createTestPaymentProvider } from './test-provider.js';

/*
 * Issue 28 item 8: a payment retried after a crash waited 113 s for the dead request's lease
 * (two minutes), then answered "pending" without charging. The lease is the provider's
 * timeout, renewed while a request lives; a retry that outlives a dead holder charges itself.
 */
const provider = createTestPaymentProvider();
const app = await createTestApp({ paymentProvider: provider });

describe(`a payment retried after its first request died (${TEST_DATABASE_KIND})`, () => {
  it('charges once the dead request’s lease ends, within the provider’s timeout', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const key = `crashed-${randomUUID()}`;
    const at = new Date();
    // What a server killed while charging leaves: a pending attempt, leased and never released.
    await app.db
      .insertInto('payments')
      .values({
        id: randomUUID(),
        user_id: user.id,
        idempotency_key: key,
        provider: provider.kind,
        plan_type: 'BASIC',
        amount_cents: priceInCents((await app.plans.catalogue()).BASIC),
        currency: 'usd',
        status: 'pending',
        provider_payment_id: null,
        message: null,
        card_name: 'Ada Lovelace King',
        charging_until: new Date(at.getTime() + provider.timeoutMs).toISOString(),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })
      .execute();
    const started = performance.now();
    const response = await app.inject({
      method: 'POST',
      url: '/api/plan/payment',
      headers: { authorization, 'x-requested-with': 'parla', 'idempotency-key': key },
      payload: {
        token: encodeTestCardToken({
          number: '4242424242424242',
          brand: 'Visa',
          exp_month: 12,
          exp_year: 2099,
        }),
        name_on_card: 'Ada Lovelace King',
        type: 'BASIC',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(MESSAGES.checkout.paymentSuccess);
    // It waited for the lease (the provider's timeout), not for minutes.
    expect(performance.now() - started).toBeLessThan(60_000);
    const rows = await app.db
      .selectFrom('payments')
      .select('status')
      .where('user_id', '=', user.id)
      .execute();
    expect(rows.map((row) => row.status)).toEqual(['succeeded']);
  }, 90_000);
});
