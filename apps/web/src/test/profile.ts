import type { Profile, ProfileUser } from '@parla/contract';

/** A person's billing details as the account and checkout tests fill them in. */
export const BILLED: Partial<ProfileUser> = {
  name: 'Ada Lovelace',
  phone: '+44 20 7946 0000',
  address: {
    country: 'GB',
    state: null,
    city: 'London',
    line1: '1 Analytical Row',
    line2: null,
    postal_code: null,
  },
};

/**
 * GET /account/profile's answer for tests: an account with no billing details on the FREE
 * plan, changed by what is given.
 */
export function profileOf(
  change: { user?: Partial<ProfileUser>; plan?: Partial<Profile['plan']> } = {},
): Profile {
  return {
    user: {
      email: 'me@example.com',
      name: null,
      phone: null,
      role: 'USER',
      address: {
        country: null,
        state: null,
        city: null,
        line1: null,
        line2: null,
        postal_code: null,
      },
      tax: { type: null, code: null },
      card: null,
      metadata: { has_payment_method_added: false },
      ...change.user,
    },
    plan: {
      type: 'FREE',
      period: 'none',
      count_characters: 1000,
      count_characters_per_convert: 500,
      count_characters_added: 0,
      count_characters_allowance: 20_000,
      engines: ['neural', 'standard'],
      ...change.plan,
    },
  };
}
