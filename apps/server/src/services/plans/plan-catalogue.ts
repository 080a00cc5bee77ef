import { PLAN_TYPES, type PlanType } from '@parla/contract';
import { z } from 'zod';

export interface PlanTerms {
  /** Price in US dollars for one period; 0 for FREE. */
  price: number;
  /** Characters granted per period. */
  count_characters: number;
  /** The most characters one conversion may use. */
  count_characters_per_convert: number;
}

export type PlanCatalogue = Record<PlanType, PlanTerms>;

/** The numbers the product ships with; each may be replaced by an environment variable. */
export const PLAN_DEFAULTS: PlanCatalogue = {
  FREE: { price: 0, count_characters: 20_000, count_characters_per_convert: 1_000 },
  BASIC: { price: 9, count_characters: 500_000, count_characters_per_convert: 5_000 },
  PREMIUM: { price: 29, count_characters: 2_000_000, count_characters_per_convert: 10_000 },
  BUSINESS: { price: 99, count_characters: 10_000_000, count_characters_per_convert: 20_000 },
};

const wholeNumber = z.coerce
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must not be negative' });
const dollars = z.coerce
  .number({ error: 'must be a price in dollars' })
  .min(0, { error: 'must not be negative' })
  .refine((value) => Number.isInteger(Math.round(value * 100)) && value * 100 < 2 ** 31, {
    error: 'must be a price in dollars',
  });

/** PLAN_BASIC_PRICE, PLAN_BASIC_CHARACTERS, PLAN_BASIC_CHARACTERS_PER_CONVERT, … */
export function planVariable(type: PlanType, field: keyof PlanTerms): string {
  const suffix = { price: 'PRICE', count_characters: 'CHARACTERS' }[field as string];
  return `PLAN_${type}_${suffix ?? 'CHARACTERS_PER_CONVERT'}`;
}

/**
 * The one place the plans' numbers live: the defaults above, each overridable from the
 * environment (PLAN_{TYPE}_PRICE, PLAN_{TYPE}_CHARACTERS, PLAN_{TYPE}_CHARACTERS_PER_CONVERT).
 * A bad value stops the process with a message naming the variable. FREE always costs nothing.
 */
export function loadPlanCatalogue(env: NodeJS.ProcessEnv): PlanCatalogue {
  const problems: string[] = [];
  const read = <T>(name: string, schema: z.ZodType<T>, fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    problems.push(`  ${name}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return fallback;
  };
  const catalogue = Object.fromEntries(
    PLAN_TYPES.map((type) => {
      const defaults = PLAN_DEFAULTS[type];
      return [
        type,
        {
          price: type === 'FREE' ? 0 : read(planVariable(type, 'price'), dollars, defaults.price),
          count_characters: read(
            planVariable(type, 'count_characters'),
            wholeNumber,
            defaults.count_characters,
          ),
          count_characters_per_convert: read(
            planVariable(type, 'count_characters_per_convert'),
            wholeNumber,
            defaults.count_characters_per_convert,
          ),
        },
      ];
    }),
  ) as PlanCatalogue;
  for (const type of PLAN_TYPES) {
    const terms = catalogue[type];
    if (terms.count_characters_per_convert > terms.count_characters) {
      problems.push(
        `  ${planVariable(type, 'count_characters_per_convert')}: must not exceed ${planVariable(type, 'count_characters')}`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`Invalid plan configuration:\n${problems.join('\n')}`);
  return catalogue;
}

/** Price of a plan in cents, as card providers count it. */
export function priceInCents(terms: PlanTerms): number {
  return Math.round(terms.price * 100);
}
