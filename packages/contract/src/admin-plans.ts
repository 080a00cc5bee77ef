import * as z from 'zod/mini';
import { ENGINES, PLAN_TYPES } from './constants.js';
import { DateTimeSchema, oneOf } from './fields.js';

// The operator's console, Plans (issue 31 §4, decision 055) ----------------------------------
//
//   GET /api/admin/plans          AdminPlanListSchema (every plan's terms now)
//   PUT /api/admin/plans/{type}   AdminPlanTermsInputSchema → AdminPlanListSchema
//
// A change applies to purchases made after it: a payment records the terms it bought, and the
// buyer keeps them (decision 055).

/** The largest number of characters or bytes a plan may give (a safe integer, with room). */
export const ADMIN_PLAN_LIMIT = 1_000_000_000_000;
/** Dollars: what a card provider's amount in cents (a 32-bit integer) can hold. */
export const ADMIN_PLAN_MAX_PRICE = 20_000_000;

/** Every answer of the Plans section that a test or a screen compares word for word. */
export const ADMIN_PLAN_MESSAGES = {
  price: `price must be a number of dollars from 0 to ${ADMIN_PLAN_MAX_PRICE.toLocaleString('en-US')}, with at most two decimals.`,
  freePrice: 'price: the FREE plan costs nothing (0).',
  whole: (field: string) =>
    `${field} must be a whole number from 0 to ${ADMIN_PLAN_LIMIT.toLocaleString('en-US')}.`,
  perConvert: 'count_characters_per_convert must not exceed count_characters.',
  engines: `engines must list at least one of ${ENGINES.join(', ')}, each once.`,
  /** A conversion asking for an engine its plan does not include. */
  engineNotInPlan: (engine: string, plan: string) =>
    `engine: the ${engine} engine is not part of the ${plan} plan; choose ${engine === 'neural' ? 'standard' : 'neural'} or another plan.`,
} as const;

const whole = (field: string) =>
  z.number({ error: ADMIN_PLAN_MESSAGES.whole(field) }).check(
    z.int({ error: ADMIN_PLAN_MESSAGES.whole(field) }),
    z.refine((value) => value >= 0 && value <= ADMIN_PLAN_LIMIT, {
      error: ADMIN_PLAN_MESSAGES.whole(field),
    }),
  );

/** Dollars with cents: 9, 9.5 and 9.99, never 9.999. */
export function isPrice(value: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= 0 &&
    value <= ADMIN_PLAN_MAX_PRICE &&
    Math.abs(Math.round(value * 100) - value * 100) < 1e-6
  );
}

/**
 * PUT /api/admin/plans/{type}: a plan's whole terms. Engines: which of the conversion engines
 * the plan may use (the product has no per-plan voices: a voice is offered to every plan that
 * has its engine).
 */
export const AdminPlanTermsInputSchema = z
  .object({
    price: z
      .number({ error: ADMIN_PLAN_MESSAGES.price })
      .check(z.refine(isPrice, { error: ADMIN_PLAN_MESSAGES.price })),
    count_characters: whole('count_characters'),
    count_characters_per_convert: whole('count_characters_per_convert'),
    storage_bytes: whole('storage_bytes'),
    engines: z.array(oneOf('engines', ENGINES), { error: ADMIN_PLAN_MESSAGES.engines }).check(
      z.refine((engines) => engines.length > 0 && new Set(engines).size === engines.length, {
        error: ADMIN_PLAN_MESSAGES.engines,
      }),
    ),
  })
  .check(
    z.superRefine((terms, ctx) => {
      if (terms.count_characters_per_convert > terms.count_characters) {
        ctx.addIssue({
          code: 'custom',
          path: ['count_characters_per_convert'],
          message: ADMIN_PLAN_MESSAGES.perConvert,
        });
      }
    }),
  );
export type AdminPlanTermsInput = z.infer<typeof AdminPlanTermsInputSchema>;

export const AdminPlanTypeParamsSchema = z.object({ type: oneOf('type', PLAN_TYPES) });

export const AdminPlanSchema = z.object({
  type: z.enum(PLAN_TYPES),
  price: z.number(),
  count_characters: z.number(),
  count_characters_per_convert: z.number(),
  storage_bytes: z.number(),
  engines: z.array(z.enum(ENGINES)),
  /** Null: the terms are still the seed's (PLAN_* or the defaults). */
  updated_at: z.nullable(DateTimeSchema),
});
export type AdminPlan = z.infer<typeof AdminPlanSchema>;

export const AdminPlanListSchema = z.object({ plans: z.array(AdminPlanSchema) });
export type AdminPlanList = z.infer<typeof AdminPlanListSchema>;
