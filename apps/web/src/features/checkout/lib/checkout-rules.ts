import {
  type PaidPlanType,
  PLAN_TYPES,
  type PlanPrice,
  type ProfilePlan,
  type ProfileUser,
} from '@parla/contract';

/** What the card field reports: nothing typed yet, a problem, or a complete card. */
export interface CardFieldState {
  empty: boolean;
  complete: boolean;
  /** The field's own message (the provider's wording), when the input is wrong. */
  error?: string;
}

export const EMPTY_CARD: CardFieldState = { empty: true, complete: false };

/** SPEC §5 Checkout: name, phone, country, city and address line 1 are filled. */
export function isBillingFilled(user: ProfileUser): boolean {
  const { name, phone, address } = user;
  return [name, phone, address.country, address.city, address.line1].every(
    (value) => typeof value === 'string' && value.trim() !== '',
  );
}

/**
 * The card name and card fields are needed only if no payment method is saved or the user is
 * editing the card (SPEC §5).
 */
export function needsCardEntry(hasPaymentMethod: boolean, editingCard: boolean): boolean {
  return !hasPaymentMethod || editingCard;
}

export interface PayConditions {
  billingFilled: boolean;
  needsCard: boolean;
  /** The name-on-card form is valid (ignored when no card is needed). */
  formValid: boolean;
  card: CardFieldState;
  submitting: boolean;
}

/**
 * The pay button is enabled only when billing settings are filled, the form is valid and the
 * card input is valid (not empty, no error) — the last two only when a card must be entered —
 * and no payment is already on its way (SPEC §5 Checkout).
 */
export function canPay({ billingFilled, needsCard, formValid, card, submitting }: PayConditions) {
  if (submitting || !billingFilled) return false;
  if (!needsCard) return true;
  return formValid && !card.empty && !card.error && card.complete;
}

/** What buying one paid plan does to the active one, for the confirmation before paying. */
export interface PlanChange {
  /** The new plan is below the current one (a lower limit per conversion). */
  downgrade: boolean;
  from: PaidPlanType;
  to: PaidPlanType;
  /** Characters left on the current plan, all kept. */
  kept: number;
  added: number;
  total: number;
  perConvertFrom: number;
  perConvertTo: number;
}

/**
 * What buying `next` does to an active paid plan, said before paying (issue 13 item 6): the
 * remaining characters are kept and the new plan's are added; a plan below the current one is
 * a downgrade, with the per-conversion limit it lowers. Undefined on FREE: nothing to confirm.
 */
export function planChange(
  current: ProfilePlan,
  next: PaidPlanType,
  terms: PlanPrice,
): PlanChange | undefined {
  if (current.type === 'FREE') return undefined;
  return {
    downgrade: PLAN_TYPES.indexOf(next) < PLAN_TYPES.indexOf(current.type),
    from: current.type,
    to: next,
    kept: current.count_characters,
    added: terms.count_characters,
    total: current.count_characters + terms.count_characters,
    perConvertFrom: current.count_characters_per_convert,
    perConvertTo: terms.count_characters_per_convert,
  };
}
