import type { PlanType } from '@parla/contract';

/** The translation key of each plan's name. */
export const PLAN_NAME_KEYS = {
  FREE: 'plans.free',
  BASIC: 'plans.basic',
  PREMIUM: 'plans.premium',
  BUSINESS: 'plans.business',
} as const satisfies Record<PlanType, string>;
