import { randomUUID } from 'node:crypto';
import {
  ADMIN_PAYMENT_MESSAGES,
  type AdminRefundInput,
  type PaidPlanType,
  type RefundCharacters,
} from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { Payment, Refund, User } from '../../db/schema.js';
import { type Actor, createAuditLog } from '../admin/audit-log.js';
import type { PlanStore } from '../plans/plan-store.js';
import { type PaymentProvider, RefundRefusedError } from './payment-provider.js';

/** A refund the request cannot make: answered with `status` and `message` (naming the field). */
export class RefundError extends Error {
  override name = 'RefundError';
  readonly status: number;
  readonly field: string | undefined;
  constructor(status: number, message: string, field?: string) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

export interface RefundServiceOptions {
  db: Db;
  provider: PaymentProvider;
  plans: PlanStore;
  /** Called after a refund committed (the user's mail). */
  onRefund?: (refund: Refund, payment: Payment, user: User | undefined) => void;
  now?: () => Date;
  /** How often a retried request looks whether the refund it repeats is done. */
  pollMs?: number;
}

/** The characters a refund takes back, never more than what the payment gave minus earlier refunds. */
export function charactersToTake(
  choice: RefundCharacters,
  given: number,
  takenBefore: number,
  amountCents: number,
  paymentCents: number,
): number {
  const left = Math.max(0, given - takenBefore);
  if (choice === 'none') return 0;
  if (choice === 'all') return left;
  return Math.min(left, Math.round((given * amountCents) / paymentCents));
}

/**
 * Refunds from the console (issue 31 §5, decision 051). One refund, one row, unique per
 * (payment, Idempotency-Key): a retried request finds its row and answers as the first did.
 * The amount is reserved on the payment by one conditional update (`amount_refunded_cents +
 * amount <= amount_cents`) in the transaction that inserts the row, so two refunds racing can
 * never exceed the payment; the provider is then called with a key derived from the row, and
 * the outcome, the characters taken back and the audit entry commit together.
 */
export function createRefundService({
  db,
  provider,
  plans,
  onRefund,
  now = () => new Date(),
  pollMs = 100,
}: RefundServiceOptions) {
  const findRefund = (paymentId: string, key: string) =>
    db
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', '=', paymentId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();

  /** Reserves the amount and inserts the pending row; a RefundError when nothing is left. */
  async function reserve(payment: Payment, input: AdminRefundInput, key: string, actor: Actor) {
    return db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', payment.id)
        .executeTakeFirstOrThrow();
      const rest = current.amount_cents - current.amount_refunded_cents;
      if (rest <= 0)
        throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.fullyRefunded, 'amount_cents');
      const amount = input.amount_cents ?? rest;
      const reserved = await trx
        .updateTable('payments')
        .set((eb) => ({ amount_refunded_cents: eb('amount_refunded_cents', '+', amount) }))
        .where('id', '=', payment.id)
        .where('status', '=', 'succeeded')
        .where((eb) => eb(eb('amount_refunded_cents', '+', amount), '<=', eb.ref('amount_cents')))
        .returning('amount_refunded_cents')
        .executeTakeFirst();
      if (!reserved) {
        // Another refund took part of the rest since it was read.
        const after = await trx
          .selectFrom('payments')
          .select(['amount_cents', 'amount_refunded_cents'])
          .where('id', '=', payment.id)
          .executeTakeFirstOrThrow();
        const left = after.amount_cents - after.amount_refunded_cents;
        if (left <= 0) {
          throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.fullyRefunded, 'amount_cents');
        }
        throw new RefundError(400, ADMIN_PAYMENT_MESSAGES.amountOverRest(left), 'amount_cents');
      }
      const at = now().toISOString();
      return trx
        .insertInto('refunds')
        .values({
          id: randomUUID(),
          payment_id: payment.id,
          idempotency_key: key,
          amount_cents: amount,
          currency: payment.currency,
          status: 'pending',
          reason: input.reason,
          characters: input.characters,
          provider_refund_id: null,
          message: null,
          actor_id: actor?.id ?? null,
          actor_email: actor?.email ?? null,
          processing_until: new Date(now().getTime() + provider.timeoutMs).toISOString(),
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  /** The refund was refused or failed at the provider: its amount is free to refund again. */
  async function fail(refund: Refund, message: string) {
    await db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('refunds')
        .set({ status: 'failed', message, processing_until: null, updated_at: now().toISOString() })
        .where('id', '=', refund.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!updated) return;
      await trx
        .updateTable('payments')
        .set((eb) => ({
          amount_refunded_cents: eb('amount_refunded_cents', '-', refund.amount_cents),
        }))
        .where('id', '=', refund.payment_id)
        .execute();
    });
  }

  /**
   * The provider refunded: the row succeeds, the characters chosen are taken back (never below
   * zero) and the audit entry is written, in one transaction.
   */
  async function succeed(
    refund: Refund,
    payment: Payment,
    refundId: string,
    chargeId: string | null,
    actor: Actor,
  ) {
    return db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('refunds')
        .set({
          status: 'succeeded',
          provider_refund_id: refundId,
          processing_until: null,
          updated_at: now().toISOString(),
        })
        .where('id', '=', refund.id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      if (!updated) return undefined;
      if (chargeId && !payment.provider_charge_id) {
        await trx
          .updateTable('payments')
          .set({ provider_charge_id: chargeId })
          .where('id', '=', payment.id)
          .execute();
      }
      const given =
        payment.count_characters ??
        (await plans.catalogue())[payment.plan_type as PaidPlanType]?.count_characters ??
        0;
      const { taken } = await trx
        .selectFrom('refunds')
        .select((eb) =>
          eb.fn.coalesce(eb.fn.sum<number | string>('characters_taken'), eb.lit(0)).as('taken'),
        )
        .where('payment_id', '=', payment.id)
        .where('status', '=', 'succeeded')
        .executeTakeFirstOrThrow();
      const wanted = charactersToTake(
        refund.characters as RefundCharacters,
        given,
        Number(taken),
        refund.amount_cents,
        payment.amount_cents,
      );
      let before: number | null = null;
      let after: number | null = null;
      if (wanted > 0) {
        // Read, then change only if nothing spent meanwhile (a conversion at the same moment):
        // the count never goes below zero and before/after are exact.
        for (;;) {
          const user = await trx
            .selectFrom('users')
            .select('count_characters')
            .where('id', '=', payment.user_id)
            .executeTakeFirst();
          if (!user) break;
          const next = Math.max(0, user.count_characters - wanted);
          const changed = await trx
            .updateTable('users')
            .set({ count_characters: next, updated_at: now().toISOString() })
            .where('id', '=', payment.user_id)
            .where('count_characters', '=', user.count_characters)
            .returning('id')
            .executeTakeFirst();
          if (changed) {
            before = user.count_characters;
            after = next;
            break;
          }
        }
      }
      const charactersTaken = before !== null && after !== null ? before - after : 0;
      const done = await trx
        .updateTable('refunds')
        .set({ characters_taken: charactersTaken })
        .where('id', '=', refund.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const refunded = await trx
        .selectFrom('payments')
        .select('amount_refunded_cents')
        .where('id', '=', payment.id)
        .executeTakeFirstOrThrow();
      await createAuditLog(trx).record({
        actor,
        action: 'payment.refund',
        targetType: 'payment',
        targetId: payment.id,
        before: {
          amount_refunded_cents: refunded.amount_refunded_cents - refund.amount_cents,
          ...(before !== null && { count_characters: before }),
        },
        after: {
          amount_refunded_cents: refunded.amount_refunded_cents,
          refund_id: done.id,
          provider_refund_id: refundId,
          amount_cents: refund.amount_cents,
          characters: done.characters,
          characters_taken: charactersTaken,
          ...(after !== null && { count_characters: after }),
        },
        reason: refund.reason,
      });
      return done;
    });
  }

  /** Calls the provider for a refund this request holds and records what it answered. */
  async function process(refund: Refund, payment: Payment, actor: Actor): Promise<Refund> {
    if (!payment.provider_payment_id) {
      await fail(refund, ADMIN_PAYMENT_MESSAGES.notRefundable);
      throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.notRefundable);
    }
    // The lease is renewed while the provider answers (the SDK's own retries may take longer
    // than one timeout), so a retry takes the refund over only from a request that died.
    const renewal = setInterval(() => {
      db.updateTable('refunds')
        .set({ processing_until: new Date(now().getTime() + provider.timeoutMs).toISOString() })
        .where('id', '=', refund.id)
        .where('status', '=', 'pending')
        .execute()
        .catch(() => undefined);
    }, provider.timeoutMs / 3);
    try {
      const outcome = await provider
        .refund({
          paymentId: payment.provider_payment_id,
          amountCents: refund.amount_cents,
          // Derived from our row: a retry (or a request taking over a dead one) is the same refund.
          idempotencyKey: `parla-refund:${refund.id}`,
          metadata: { refund_id: refund.id, payment_id: payment.id },
        })
        .finally(() => clearInterval(renewal));
      if (outcome.status === 'failed') {
        const message = outcome.message ?? 'failed';
        await fail(refund, message);
        throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.refundRefused(message));
      }
      // A pending refund at the provider is on its way (Stripe settles card refunds later): it
      // counts as made, as Stripe's dashboard shows it.
      const done = await succeed(refund, payment, outcome.refundId, outcome.chargeId, actor);
      const row = done ?? (await getRefund(refund.id));
      if (done) {
        const user = await db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', payment.user_id)
          .executeTakeFirst();
        onRefund?.(done, payment, user);
      }
      return row;
    } catch (error) {
      if (error instanceof RefundRefusedError) {
        await fail(refund, error.message);
        const status = error.code === 'charge_already_refunded' ? 409 : 400;
        throw new RefundError(
          status,
          ADMIN_PAYMENT_MESSAGES.refundRefused(error.message),
          'amount_cents',
        );
      }
      // Anything else (network, provider down) leaves the refund pending: a retry with the same
      // Idempotency-Key takes it over once its lease ends and asks the provider again with the
      // same key, which replays the refund instead of making a second one.
      throw error;
    }
  }

  const getRefund = (id: string) =>
    db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** A retry of a refund another request holds: waits for it, or takes it over once its lease ends. */
  async function replay(existing: Refund, payment: Payment, input: AdminRefundInput, actor: Actor) {
    const sameRequest =
      (input.amount_cents === undefined || input.amount_cents === existing.amount_cents) &&
      input.characters === existing.characters &&
      input.reason === existing.reason;
    if (!sameRequest) throw new RefundError(422, ADMIN_PAYMENT_MESSAGES.keyReused);
    let row = existing;
    for (;;) {
      if (row.status === 'succeeded') return row;
      if (row.status === 'failed') {
        throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.refundRefused(row.message ?? 'failed'));
      }
      const at = now();
      if (!row.processing_until || row.processing_until < at.toISOString()) {
        const claimed = await db
          .updateTable('refunds')
          .set({ processing_until: new Date(at.getTime() + provider.timeoutMs).toISOString() })
          .where('id', '=', row.id)
          .where('status', '=', 'pending')
          .where((eb) =>
            eb.or([
              eb('processing_until', 'is', null),
              eb('processing_until', '<', at.toISOString()),
            ]),
          )
          .returningAll()
          .executeTakeFirst();
        if (claimed) return process(claimed, payment, actor);
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      row = await getRefund(row.id);
    }
  }

  return {
    async refund(
      payment: Payment,
      input: AdminRefundInput,
      key: string,
      actor: Actor,
    ): Promise<Refund> {
      const existing = await findRefund(payment.id, key);
      if (existing) return replay(existing, payment, input, actor);
      if (payment.status !== 'succeeded') {
        throw new RefundError(409, ADMIN_PAYMENT_MESSAGES.notRefundable);
      }
      let refund: Refund;
      try {
        refund = await reserve(payment, input, key, actor);
      } catch (error) {
        // The same key arrived twice at once: the other request inserted the row (and may have
        // reserved what was left).
        const raced = await findRefund(payment.id, key);
        if (raced) return replay(raced, payment, input, actor);
        throw error;
      }
      return process(refund, payment, actor);
    },
  };
}

export type RefundService = ReturnType<typeof createRefundService>;
