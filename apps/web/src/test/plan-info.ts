import { PLAN_STORAGE_QUOTA_BYTES, type PlanInfo } from '@parla/contract';

const engines: PlanInfo['free']['engines'] = ['neural', 'standard'];

/** GET /plan/info's answer for tests: the plans the product ships with. */
export const PLAN_INFO: PlanInfo = {
  free: {
    price: 0,
    count_characters: 20_000,
    count_characters_per_convert: 1_000,
    storage_bytes: PLAN_STORAGE_QUOTA_BYTES.FREE,
    engines,
  },
  basic: {
    price: 9,
    count_characters: 500_000,
    count_characters_per_convert: 5_000,
    storage_bytes: PLAN_STORAGE_QUOTA_BYTES.BASIC,
    engines,
  },
  premium: {
    price: 29,
    count_characters: 2_000_000,
    count_characters_per_convert: 10_000,
    storage_bytes: PLAN_STORAGE_QUOTA_BYTES.PREMIUM,
    engines,
  },
  business: {
    price: 99,
    count_characters: 10_000_000,
    count_characters_per_convert: 20_000,
    storage_bytes: PLAN_STORAGE_QUOTA_BYTES.BUSINESS,
    engines,
  },
};
