import type { PlanType } from '@parla/contract';

export interface PlanTerms {
  /** Price in US dollars for one period; 0 for FREE. */
  price: number;
  /** Characters granted per period. */
  count_characters: number;
  /** The most characters one conversion may use. */
  count_characters_per_convert: number;
}

/**
 * The one place the plans' numbers live (issue 6 makes it configurable). Every limit the server
 * enforces and every number the pricing page shows comes from here.
 */
export const DEFAULT_PLAN_CATALOGUE: Record<PlanType, PlanTerms> = {
  FREE: { price: 0, count_characters: 20_000, count_characters_per_convert: 1_000 },
  BASIC: { price: 9, count_characters: 500_000, count_characters_per_convert: 5_000 },
  PREMIUM: { price: 29, count_characters: 2_000_000, count_characters_per_convert: 10_000 },
  BUSINESS: { price: 99, count_characters: 10_000_000, count_characters_per_convert: 20_000 },
};
