import { createHash, randomUUID } from 'node:crypto';
import { MESSAGES, type PaidPlanType, type PaymentInput } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { Invoice, Payment, User } from '../../db/schema.js';
import {
  type ChargeOutcome,
  PaymentInputError,
  type PaymentProvider,
  type SavedCard,
} from '../../services/payments/payment-provider.js';
import { createPaymentRepository } from '../../services/payments/payment-repository.js';
import { type PlanTerms, priceInCents } from '../../services/plans/plan-catalogue.js';
import { type PlanStore, recordTerms } from '../../services/plans/plan-store.js';

export const PAYMENT_MESSAGES = {
  succeeded: MESSAGES.checkout.paymentSuccess,
  pending: 'Your payment is being processed. Your plan changes as soon as it is confirmed.',
  newCardNeeded: 'Enter the new card to update it.',
  noSavedCard: 'No card is saved. Enter a card to pay.',
  attemptMismatch: 'This payment attempt was for another plan. Start the payment again.',
} as const;

/** A payment the provider refused (declined card, authentication needed): answered 402. */
export class PaymentDeclinedError extends Error {
  override name = 'PaymentDeclinedError';
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

/** How long a payment sent without an Idempotency-Key is one attempt (derivedKey). */
const DERIVED_KEY_WINDOW_MS = 60_000;

export type PayResult = { status: 'succeeded' | 'pending'; message: string };

export interface PaymentServiceOptions {
  db: Db;
  provider: PaymentProvider;
  plans: PlanStore;
  /** Called after the transaction that gave a plan committed, with the invoice it wrote. */
  onInvoice?: (invoice: Invoice, user: User) => void;
  now?: () => Date;
  /**
   * How long one request's hold on an attempt lasts unrenewed (renewed while it talks to the
   * provider); default the provider's timeout.
   */
  chargeLeaseMs?: number;
  /** How often a duplicate request looks whether the attempt it waits for is settled. */
  pollMs?: number;
}

export function createPaymentService({
  db,
  provider,
  plans,
  onInvoice,
  now = () => new Date(),
  chargeLeaseMs = provider.timeoutMs,
  pollMs = 100,
}: PaymentServiceOptions) {
  const payments = createPaymentRepository(db);
  /**
   * Stores what the provider knows of the user: the customer always; the new card only for a
   * payment still processing (a succeeded one saves it in its settling transaction, a failed
   * one never replaces the saved card).
   */
  async function rememberCustomer(userId: string, outcome: ChargeOutcome) {
    const keepCard = outcome.status === 'pending' && outcome.paymentMethodId;
    if (!outcome.customerId && !keepCard) return;
    await payments.rememberCard(userId, {
      customerId: outcome.customerId,
      ...(keepCard && { paymentMethodId: outcome.paymentMethodId, card: outcome.card }),
    });
  }

  /**
   * Marks the payment succeeded, gives its plan and writes its invoice (numbered from the
   * installation's counter), in one transaction. The conditional update makes it safe to call
   * twice (the charge's answer and the provider's webhook): only the first grants the
   * characters and invoices. The invoice is handed to `onInvoice` once committed.
   */
  async function settleSucceeded(
    paymentRowId: string,
    newCard?: { card?: SavedCard; paymentMethodId?: string; name: string | null },
  ) {
    // An attempt made before migration 0018 recorded no terms: the plan's now.
    const catalogue = await plans.catalogue();
    const termsOf = (payment: Payment): PlanTerms =>
      payment.terms
        ? (JSON.parse(payment.terms) as PlanTerms)
        : catalogue[payment.plan_type as PaidPlanType];
    const settled = await payments.settle(paymentRowId, termsOf, now(), newCard);
    if (!settled) return false;
    onInvoice?.(settled.invoice, settled.user);
    return true;
  }

  /**
   * Takes the attempt for this request, so that of identical concurrent requests only one
   * talks to the provider. A lease, not a lock: a holder that died is replaced after it ends.
   */
  async function claim(paymentRowId: string) {
    const at = now();
    return payments.claim(paymentRowId, at, new Date(at.getTime() + chargeLeaseMs));
  }

  /**
   * Charges the attempt this request claimed, renewing the lease while the provider answers,
   * and lets it go at the end.
   */
  async function chargeHeld(
    user: User,
    input: PaymentInput,
    payment: Payment,
    key: string,
    cardName: string | null,
  ) {
    const renewal = setInterval(() => {
      payments.renew(payment.id, new Date(now().getTime() + chargeLeaseMs)).catch(() => undefined);
    }, chargeLeaseMs / 3);
    try {
      return await charge(user, input, payment, key, cardName);
    } finally {
      clearInterval(renewal);
      await payments.release(payment.id);
    }
  }

  /** The attempt once the request holding it let go (settled, failed or pending at the provider). */
  async function awaitHolder(paymentRowId: string): Promise<Payment> {
    for (;;) {
      const row = await payments.get(paymentRowId);
      const held = row.charging_until !== null && row.charging_until > now().toISOString();
      if (row.status !== 'pending' || !held) return row;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async function markFailed(paymentRowId: string, message: string) {
    await payments.markFailed(paymentRowId, message, now());
  }

  /** The attempt's row: the one a previous try of the same key left, or a new pending one. */
  async function attemptRow(user: User, key: string, type: PaidPlanType, cardName: string | null) {
    const find = () => payments.findAttempt(user.id, key);
    const existing = await find();
    if (existing) return existing;
    const at = now().toISOString();
    // The terms of this purchase: the price charged and what it gives, whatever the plan's
    // terms become before it settles (decision 055).
    const terms = (await plans.catalogue())[type];
    try {
      return await payments.insert({
        id: randomUUID(),
        user_id: user.id,
        idempotency_key: key,
        provider: provider.kind,
        plan_type: type,
        amount_cents: priceInCents(terms),
        terms: recordTerms(terms),
        currency: 'usd',
        status: 'pending',
        provider_payment_id: null,
        message: null,
        card_name: cardName,
        charging_until: null,
        created_at: at,
        updated_at: at,
      });
    } catch (error) {
      // The same attempt arrived twice at once: the other request inserted it.
      const raced = await find();
      if (raced) return raced;
      throw error;
    }
  }

  /** Calls the provider for the attempt this request holds and records what it answered. */
  async function charge(
    user: User,
    input: PaymentInput,
    payment: Payment,
    key: string,
    cardName: string | null,
  ): Promise<PayResult> {
    let outcome: ChargeOutcome;
    try {
      outcome = await provider.charge({
        user: {
          id: user.id,
          email: user.email,
          name: user.name,
          customerId: user.payment_customer_id,
          paymentMethodId: user.payment_method_id,
        },
        token: input.token,
        nameOnCard: cardName,
        amountCents: payment.amount_cents,
        currency: 'usd',
        description: `Parla ${input.type} plan`,
        // Stripe keeps the key 24 hours; ours is scoped to the user so keys of two users
        // can never meet.
        idempotencyKey: `parla:${user.id}:${key}`,
        metadata: { payment_id: payment.id, user_id: user.id, plan: input.type },
      });
    } catch (error) {
      if (error instanceof PaymentInputError) await markFailed(payment.id, error.message);
      // Anything else (network, provider down) leaves the attempt pending: retrying it with
      // the same key is safe.
      throw error;
    }
    await rememberCustomer(user.id, outcome);
    if (outcome.paymentId) {
      await payments.setProviderPaymentId(
        payment.id,
        outcome.paymentId,
        outcome.status === 'succeeded' ? outcome.chargeId : undefined,
      );
    }
    if (outcome.status === 'failed') {
      await markFailed(payment.id, outcome.message);
      throw new PaymentDeclinedError(outcome.message, outcome.code);
    }
    if (outcome.status === 'pending') return answer({ ...payment, status: 'pending' });
    await settleSucceeded(payment.id, {
      ...(outcome.card && { card: outcome.card }),
      ...(outcome.paymentMethodId && { paymentMethodId: outcome.paymentMethodId }),
      name: cardName,
    });
    return { status: 'succeeded', message: PAYMENT_MESSAGES.succeeded };
  }

  /**
   * The attempt's key of a payment sent without one (SPEC §7's call has no header): the same
   * user, plan and card within a minute or two is the same attempt, so a second click on Pay
   * answers as the first did instead of charging again. Another card is another attempt.
   */
  async function derivedKey(user: User, input: PaymentInput, isUpdateCard: boolean) {
    const card = createHash('sha256')
      .update(`${input.token ?? 'saved card'}:${isUpdateCard}`)
      .digest('base64url')
      .slice(0, 16);
    const minute = Math.floor(now().getTime() / DERIVED_KEY_WINDOW_MS);
    const keyOf = (window: number) => `derived:${input.type}:${card}:${window}`;
    // An attempt begun in the minute before is the same one, whichever side of the minute.
    const before = await payments.findAttempt(user.id, keyOf(minute - 1));
    return keyOf(before ? minute - 1 : minute);
  }

  function answer(payment: Payment): PayResult {
    if (payment.status === 'succeeded')
      return { status: 'succeeded', message: PAYMENT_MESSAGES.succeeded };
    if (payment.status === 'pending')
      return { status: 'pending', message: PAYMENT_MESSAGES.pending };
    throw new PaymentDeclinedError(payment.message ?? MESSAGES.checkout.paymentFailed, 'failed');
  }

  return {
    settleSucceeded,

    async pay(
      user: User,
      input: PaymentInput,
      options: { isUpdateCard: boolean; idempotencyKey: string | undefined },
    ): Promise<PayResult> {
      if (options.isUpdateCard && !input.token)
        throw new PaymentInputError(PAYMENT_MESSAGES.newCardNeeded);
      if (!input.token && !user.payment_method_id) {
        throw new PaymentInputError(PAYMENT_MESSAGES.noSavedCard);
      }
      const key = options.idempotencyKey ?? (await derivedKey(user, input, options.isUpdateCard));
      const cardName = input.token ? input.name_on_card : null;
      const payment = await attemptRow(user, key, input.type, cardName);
      if (payment.plan_type !== input.type)
        throw new PaymentInputError(PAYMENT_MESSAGES.attemptMismatch);
      // A settled attempt answers as it did the first time, without calling the provider.
      if (payment.status !== 'pending') return answer(payment);
      if (await claim(payment.id)) return chargeHeld(user, input, payment, key, cardName);
      // Another request is charging this very attempt: answer as it will. If it died holding
      // the attempt (its lease ran out, never released), this request charges in its place:
      // the provider's idempotency key makes that the same charge, never a second one.
      const settled = await awaitHolder(payment.id);
      if (settled.status === 'pending' && settled.charging_until !== null) {
        if (await claim(payment.id)) return chargeHeld(user, input, settled, key, cardName);
      }
      return answer(settled);
    },

    /** Settles an asynchronous outcome the provider reported (webhook). */
    async settleFromProvider(event: {
      type: 'payment.succeeded' | 'payment.failed';
      paymentId?: string;
      reference?: string;
      message?: string;
    }): Promise<boolean> {
      const payment = await payments.findByReference({
        ...(event.reference && { id: event.reference }),
        ...(event.paymentId && { providerPaymentId: event.paymentId }),
      });
      if (!payment) return false;
      if (event.type === 'payment.succeeded') return settleSucceeded(payment.id);
      await markFailed(payment.id, event.message ?? MESSAGES.checkout.paymentFailed);
      return true;
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
