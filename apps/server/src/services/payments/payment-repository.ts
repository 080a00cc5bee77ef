import type { Db } from '../../db/database.js';
import type { NewPayment, Payment, User } from '../../db/schema.js';
import { billingOf } from '../accounts/user-repository.js';
import type { PlanTerms } from '../plans/plan-catalogue.js';
import { recordTerms } from '../plans/plan-store.js';
import type { SavedCard } from './payment-provider.js';

/** What a charge tells of the user's card, kept on the user's row. */
export interface CardUpdate {
  customerId?: string | null;
  paymentMethodId?: string | undefined;
  card?: SavedCard | undefined;
  name?: string | null;
}

const cardColumns = (card: SavedCard) => ({
  card_brand: card.brand,
  card_last4: card.last4,
  card_exp_month: card.exp_month,
  card_exp_year: card.exp_year,
});

/**
 * Payments, the plans they give and the invoices they write. Every write that must happen
 * together (a payment settled, its plan given, its invoice numbered) is one transaction here.
 */
export function createPaymentRepository(db: Db) {
  const byId = (id: string) => db.selectFrom('payments').selectAll().where('id', '=', id);
  return {
    find: (id: string) => byId(id).executeTakeFirst(),
    get: (id: string) => byId(id).executeTakeFirstOrThrow(),

    /** A payment by our id (the provider's reference) or by the provider's own id. */
    findByReference: (reference: { id?: string; providerPaymentId?: string }) => {
      if (reference.id) return byId(reference.id).executeTakeFirst();
      if (!reference.providerPaymentId) return Promise.resolve(undefined);
      return db
        .selectFrom('payments')
        .selectAll()
        .where('provider_payment_id', '=', reference.providerPaymentId)
        .executeTakeFirst();
    },

    findAttempt: (userId: string, idempotencyKey: string) =>
      db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst(),

    insert: (payment: NewPayment) =>
      db.insertInto('payments').values(payment).returningAll().executeTakeFirstOrThrow(),

    /** Takes the attempt until `until` unless another request holds it; answers whether it did. */
    async claim(id: string, at: Date, until: Date) {
      const claimed = await db
        .updateTable('payments')
        .set({ charging_until: until.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) =>
          eb.or([eb('charging_until', 'is', null), eb('charging_until', '<', at.toISOString())]),
        )
        .returning('id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    /** Extends a lease this request holds (while the provider is still answering). */
    async renew(id: string, until: Date) {
      await db
        .updateTable('payments')
        .set({ charging_until: until.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('charging_until', 'is not', null)
        .execute();
    },

    async release(id: string) {
      await db.updateTable('payments').set({ charging_until: null }).where('id', '=', id).execute();
    },

    async setProviderPaymentId(id: string, providerPaymentId: string, chargeId?: string) {
      await db
        .updateTable('payments')
        .set({
          provider_payment_id: providerPaymentId,
          ...(chargeId && { provider_charge_id: chargeId }),
        })
        .where('id', '=', id)
        .execute();
    },

    /** A pending payment failed (a settled one stays as it is). */
    async markFailed(id: string, message: string, at: Date) {
      await db
        .updateTable('payments')
        .set({ status: 'failed', message, updated_at: at.toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    /** Stores what the provider knows of the user: its customer, and a card when given. */
    async rememberCard(userId: string, update: CardUpdate) {
      await db
        .updateTable('users')
        .set({
          ...(update.customerId && { payment_customer_id: update.customerId }),
          ...(update.paymentMethodId && { payment_method_id: update.paymentMethodId }),
          ...(update.paymentMethodId && update.card && cardColumns(update.card)),
        })
        .where('id', '=', userId)
        .execute();
    },

    /**
     * Marks the payment succeeded, gives its plan and writes its invoice (numbered from the
     * installation's counter), in one transaction. The conditional update makes it safe to
     * call twice: only the first grants the characters and invoices; undefined for the second.
     */
    settle: (
      id: string,
      /** The terms the payment bought (recorded with its attempt). */
      termsOf: (payment: Payment) => PlanTerms,
      at: Date,
      newCard?: { card?: SavedCard; paymentMethodId?: string; name: string | null },
    ) =>
      db.transaction().execute(async (trx) => {
        const when = at.toISOString();
        const payment = await trx
          .updateTable('payments')
          .set({ status: 'succeeded', message: null, updated_at: when })
          .where('id', '=', id)
          .where('status', '!=', 'succeeded')
          .returningAll()
          .executeTakeFirst();
        if (!payment) return undefined;
        const terms = termsOf(payment);
        // What this payment gave, for a refund to take back (the plan's terms may change).
        await trx
          .updateTable('payments')
          .set({ count_characters: terms.count_characters, terms: recordTerms(terms) })
          .where('id', '=', payment.id)
          .execute();
        const card = newCard?.card;
        const user: User = await trx
          .updateTable('users')
          .set((eb) => ({
            plan_type: payment.plan_type,
            plan_period: 'month',
            // Characters already paid for are kept; the new plan's allowance is added to them.
            count_characters: eb('count_characters', '+', terms.count_characters),
            count_characters_added: eb('count_characters_added', '+', terms.count_characters),
            count_characters_per_convert: terms.count_characters_per_convert,
            // Kept until the next plan: a later change of the plan's terms never reaches it.
            plan_terms: recordTerms(terms),
            has_payment_method_added: 1,
            ...(newCard?.paymentMethodId && { payment_method_id: newCard.paymentMethodId }),
            ...(card && { ...cardColumns(card), card_name: newCard?.name ?? payment.card_name }),
            updated_at: when,
          }))
          .where('id', '=', payment.user_id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // The counter row stays locked until commit, so two invoices never share a number.
        const { value } = await trx
          .updateTable('counters')
          .set((eb) => ({ value: eb('value', '+', 1) }))
          .where('name', '=', 'invoice')
          .returning('value')
          .executeTakeFirstOrThrow();
        const invoice = await trx
          .insertInto('invoices')
          .values({
            number: value,
            payment_id: payment.id,
            user_id: user.id,
            plan_type: payment.plan_type,
            amount_cents: payment.amount_cents,
            currency: payment.currency,
            billing: JSON.stringify(billingOf(user)),
            issued_at: when,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { invoice, user };
      }),
  };
}
