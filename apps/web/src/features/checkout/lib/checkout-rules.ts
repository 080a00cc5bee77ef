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

const count = new Intl.NumberFormat('en-US');
const title = (type: string) => type.charAt(0) + type.slice(1).toLowerCase();

/**
 * What buying `next` does to an active paid plan, said before paying (issue 13 item 6): the
 * remaining characters are kept and the new plan's are added; a plan below the current one is
 * called a downgrade, with the per-conversion limit it lowers. Undefined on FREE: nothing to
 * confirm.
 */
export function planChangeNotice(
  current: ProfilePlan,
  next: PaidPlanType,
  terms: PlanPrice,
): { downgrade: boolean; text: string } | undefined {
  if (current.type === 'FREE') return undefined;
  const downgrade = PLAN_TYPES.indexOf(next) < PLAN_TYPES.indexOf(current.type);
  const total = current.count_characters + terms.count_characters;
  const characters = `Your ${count.format(current.count_characters)} remaining characters are kept and ${title(next)} adds ${count.format(terms.count_characters)}, ${count.format(total)} in all.`;
  const text = downgrade
    ? `This is a downgrade from ${title(current.type)} to ${title(next)}: the limit per conversion drops from ${count.format(current.count_characters_per_convert)} to ${count.format(terms.count_characters_per_convert)} characters. ${characters}`
    : `You already have the ${title(current.type)} plan. ${characters} The limit per conversion becomes ${count.format(terms.count_characters_per_convert)} characters.`;
  return { downgrade, text };
}
