import type { PlanInfo } from '@parla/contract';

/** GET /plan/info's answer for tests: the plans the product ships with. */
export const PLAN_INFO: PlanInfo = {
  free: { price: 0, count_characters: 20_000, count_characters_per_convert: 1_000 },
  basic: { price: 9, count_characters: 500_000, count_characters_per_convert: 5_000 },
  premium: { price: 29, count_characters: 2_000_000, count_characters_per_convert: 10_000 },
  business: { price: 99, count_characters: 10_000_000, count_characters_per_convert: 20_000 },
};
