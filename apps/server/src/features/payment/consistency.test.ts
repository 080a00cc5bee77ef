import { encodeTestCardToken, ProfileSchema } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { createTestApp, ownDatabaseUrl, signedInUser, testConfig } from '../../../test/test-app.js';
import { PLAN_DEFAULTS } from '../../services/plans/plan-catalogue.js';

/*
 * The fault: a plan whose grant the database refuses (the users table's CHECK that characters
 * never go negative). The charge itself succeeds; the transition that would record it and
 * change the plan must then leave neither behind. On a database of this file's own: the plans
 * given are the seed of an empty database (decision 055), which a shared one is not.
 */
const ownUrl = await ownDatabaseUrl('consistency');
const app = await createTestApp({
  ...(ownUrl && { config: testConfig({ DATABASE_URL: ownUrl }) }),
  plans: {
    ...PLAN_DEFAULTS,
    BASIC: { ...PLAN_DEFAULTS.BASIC, count_characters: -1_000_000_000 },
  },
});

describe('payment and plan change are one transition', () => {
  it('when the plan cannot be written, the payment is not marked succeeded either', async () => {
    const { authorization, user } = await signedInUser(app, { billing: true });
    const response = await app.inject({
      method: 'POST',
      url: '/api/plan/payment',
      headers: { authorization, 'x-requested-with': 'parla', 'idempotency-key': 'fault-attempt-1' },
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
    expect(response.statusCode).toBe(500);
    const payments = await app.db
      .selectFrom('payments')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    // Still pending: a retry of the same attempt (same key) may settle it; never 'succeeded'
    // without the plan.
    expect(payments.map((payment) => payment.status)).toEqual(['pending']);
    const profile = ProfileSchema.parse(
      (
        await app.inject({ method: 'GET', url: '/api/account/profile', headers: { authorization } })
      ).json(),
    );
    expect(profile.plan).toMatchObject({ type: 'FREE', count_characters: user.count_characters });
    expect(profile.user.card).toBeNull();
  });
});
