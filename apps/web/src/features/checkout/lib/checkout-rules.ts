import type { ProfileUser } from '@parla/contract';

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
