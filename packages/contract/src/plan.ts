import * as z from 'zod/mini';
import {
  ENGINES,
  PAID_PLAN_TYPES,
  type PaidPlanType,
  type PlanType,
  TAG_COSTS,
  type TagKind,
} from './constants.js';
import { BooleanQuerySchema, NameOnCardSchema } from './fields.js';

// GET /plan/info (no token): the terms of the plans now, as the console set them (decision 055)

export const PlanPriceSchema = z.object({
  /** Dollars. */
  price: z.number().check(z.nonnegative()),
  count_characters: z.number().check(z.int(), z.nonnegative()),
  count_characters_per_convert: z.number().check(z.int(), z.nonnegative()),
  /** Bytes of saved files the plan keeps (0: no saving). */
  storage_bytes: z.number().check(z.int(), z.nonnegative()),
  /** The conversion engines the plan may use. */
  engines: z.array(z.enum(ENGINES)),
});
export type PlanPrice = z.infer<typeof PlanPriceSchema>;

export const PlanInfoSchema = z.object({
  free: PlanPriceSchema,
  basic: PlanPriceSchema,
  premium: PlanPriceSchema,
  business: PlanPriceSchema,
});
export type PlanInfo = z.infer<typeof PlanInfoSchema>;

/** The plan-info key of a plan type ('PREMIUM' -> 'premium'). */
export function planInfoKey(type: PlanType): keyof PlanInfo {
  return type.toLowerCase() as Lowercase<PlanType>;
}

// /account/checkout?type=… -------------------------------------------------------------------

export const CHECKOUT_TYPES = ['basic', 'premium', 'business'] as const;
export type CheckoutType = (typeof CHECKOUT_TYPES)[number];

/** The checkout page's `type` query: basic, premium or business in any case (SPEC §2). */
export const CheckoutTypeSchema = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value) => value.toLowerCase()),
  ),
  z.enum(CHECKOUT_TYPES),
);

/** The checkout type of a query value, or undefined (the page then redirects to /pricing). */
export function parseCheckoutType(value: string | null | undefined): CheckoutType | undefined {
  const result = CheckoutTypeSchema.safeParse(value);
  return result.success ? result.data : undefined;
}

export function checkoutPlanType(type: CheckoutType): PaidPlanType {
  return type.toUpperCase() as Uppercase<CheckoutType>;
}

// POST /plan/payment?is_update_card={bool} ---------------------------------------------------

export const PaymentQuerySchema = z.object({ is_update_card: BooleanQuerySchema });
export type PaymentQuery = z.infer<typeof PaymentQuerySchema>;

/**
 * `token` is the provider's card token id, or null to pay with the saved card; the name on
 * the card is validated only when a new card is given (SPEC §5 "Checkout").
 */
export const PaymentInputSchema = z
  .object({
    token: z.nullable(z.string().check(z.minLength(1))),
    name_on_card: z.nullable(z.string()),
    type: z.enum(PAID_PLAN_TYPES),
  })
  .check(
    z.superRefine((payment, ctx) => {
      if (payment.token === null) return;
      const name = NameOnCardSchema.safeParse(payment.name_on_card);
      for (const issue of name.error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: ['name_on_card'], message: issue.message });
      }
    }),
  );
export type PaymentInput = z.infer<typeof PaymentInputSchema>;

/**
 * The checkout form's own field. Use it only when a card must be entered (no saved payment
 * method, or the user is editing the card); otherwise the form has nothing to validate.
 */
export const PaymentFormSchema = z.object({ name_on_card: NameOnCardSchema });
export type PaymentForm = z.infer<typeof PaymentFormSchema>;

// Character accounting (SPEC §5, §9) ---------------------------------------------------------

/** Whether a tag insertion fits in the remaining characters. */
export function canInsertTag(kind: TagKind, remainingCharacters: number): boolean {
  return remainingCharacters >= TAG_COSTS[kind];
}

/**
 * The characters a conversion spends: the text exactly as the editor holds it and sends it,
 * markup included (the tag costs of SPEC §9 are the lengths of the tags the editor inserts),
 * counted in Unicode code points so that an accented letter or an emoji is one character.
 * The editor's counter and the server's accounting both use this, and nothing else.
 */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
