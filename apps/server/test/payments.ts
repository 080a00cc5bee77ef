import { randomUUID } from 'node:crypto';
import { ProfileSchema } from '@parla/contract';
import type { createTestApp } from './test-app.js';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The two calls every payment test makes, as the checkout page makes them. */
export function paymentCalls(app: TestApp) {
  return {
    async profile(authorization: string) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { authorization },
      });
      return ProfileSchema.parse(response.json());
    },

    /** The user's payments rows, oldest first. */
    payments: (userId: string) =>
      app.db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .execute(),

    pay(
      authorization: string,
      body: { token: string | null; name_on_card: string | null; type: string },
      /** `key`: the attempt's Idempotency-Key, a new one by default; null sends none. */
      options: { key?: string | null; isUpdateCard?: boolean } = {},
    ) {
      const key = options.key === undefined ? randomUUID() : options.key;
      return app.inject({
        method: 'POST',
        url: `/api/plan/payment?is_update_card=${options.isUpdateCard ?? false}`,
        headers: {
          authorization,
          'x-requested-with': 'parla',
          ...(key !== null && { 'idempotency-key': key }),
        },
        payload: body,
      });
    },
  };
}
