import {
  ENGINES,
  type Engine,
  PLAN_STORAGE_QUOTA_BYTES,
  PLAN_TYPES,
  type PlanType,
} from '@parla/contract';
import { z } from 'zod';

export interface PlanTerms {
  /** Price in US dollars for one period; 0 for FREE. */
  price: number;
  /** Characters granted per period. */
  count_characters: number;
  /** The most characters one conversion may use. */
  count_characters_per_convert: number;
  /** Bytes of saved files the plan keeps. */
  storage_bytes: number;
  /** The conversion engines the plan may use. */
  engines: Engine[];
}

export type PlanCatalogue = Record<PlanType, PlanTerms>;

const terms = (
  type: PlanType,
  price: number,
  count_characters: number,
  count_characters_per_convert: number,
): PlanTerms => ({
  price,
  count_characters,
  count_characters_per_convert,
  storage_bytes: PLAN_STORAGE_QUOTA_BYTES[type],
  engines: [...ENGINES],
});

/**
 * The terms the product ships with; each number may be replaced by an environment variable.
 * They seed an empty database (services/plans/plan-store.ts); the console edits them there.
 */
export const PLAN_DEFAULTS: PlanCatalogue = {
  FREE: terms('FREE', 0, 20_000, 1_000),
  BASIC: terms('BASIC', 9, 500_000, 5_000),
  PREMIUM: terms('PREMIUM', 29, 2_000_000, 10_000),
  BUSINESS: terms('BUSINESS', 99, 10_000_000, 20_000),
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

const SUFFIXES: Record<keyof PlanTerms, string> = {
  price: 'PRICE',
  count_characters: 'CHARACTERS',
  count_characters_per_convert: 'CHARACTERS_PER_CONVERT',
  storage_bytes: 'STORAGE_BYTES',
  engines: 'ENGINES',
};

/** PLAN_BASIC_PRICE, PLAN_BASIC_CHARACTERS, PLAN_BASIC_CHARACTERS_PER_CONVERT, … */
export function planVariable(type: PlanType, field: keyof PlanTerms): string {
  return `PLAN_${type}_${SUFFIXES[field]}`;
}

const enginesError = `must list engines among ${ENGINES.join(', ')}`;
const engineList = z
  .string()
  .transform((value) => [...new Set(value.split(',').map((engine) => engine.trim()))])
  .pipe(z.array(z.enum(ENGINES, { error: enginesError })).min(1, { error: enginesError }));

/**
 * The seed of the plans table: the defaults above, each overridable from the environment
 * (PLAN_{TYPE}_PRICE, _CHARACTERS, _CHARACTERS_PER_CONVERT, _STORAGE_BYTES, _ENGINES).
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
          storage_bytes: read(
            planVariable(type, 'storage_bytes'),
            wholeNumber,
            defaults.storage_bytes,
          ),
          engines: read(planVariable(type, 'engines'), engineList, defaults.engines),
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
