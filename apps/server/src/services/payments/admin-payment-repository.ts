import {
  type AdminPayment,
  type AdminPaymentDetail,
  type AdminPaymentQuery,
  type AdminPaymentStatus,
  invoiceNumber,
  type PaidPlanType,
  type RefundCharacters,
} from '@parla/contract';
import type { Db } from '../../db/database.js';
import { pageOf } from '../../db/paging.js';
import type { Payment, Refund } from '../../db/schema.js';
import { emailContains } from '../admin/admin-user-repository.js';
import type { PlanStore } from '../plans/plan-store.js';

/** The console's state of a payment: its status, and how much of a succeeded one was refunded. */
function statusOf(payment: Payment): AdminPaymentStatus {
  if (payment.status !== 'succeeded' || payment.amount_refunded_cents === 0) return payment.status;
  return payment.amount_refunded_cents >= payment.amount_cents ? 'refunded' : 'partially_refunded';
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString();

/**
 * The console's reads of payments (issue 31 §5, decision 051): each with its payer, provider
 * ids, invoice and refunds. `plans` gives the characters of a payment made before they were
 * kept on it.
 */
export function createAdminPaymentRepository(db: Db, plans: PlanStore) {
  const withUser = () =>
    db
      .selectFrom('payments')
      .innerJoin('users', 'users.id', 'payments.user_id')
      .leftJoin('invoices', 'invoices.payment_id', 'payments.id');

  const columns = [
    'payments.id',
    'payments.user_id',
    'payments.idempotency_key',
    'payments.provider',
    'payments.plan_type',
    'payments.amount_cents',
    'payments.currency',
    'payments.status',
    'payments.provider_payment_id',
    'payments.message',
    'payments.card_name',
    'payments.charging_until',
    'payments.amount_refunded_cents',
    'payments.provider_charge_id',
    'payments.count_characters',
    'payments.created_at',
    'payments.updated_at',
    'users.email',
    'invoices.number as invoice',
    'invoices.issued_at as invoice_date',
  ] as const;

  type Row = Payment & { email: string; invoice: number | null; invoice_date: string | null };

  const toAdminPayment = (row: Row): AdminPayment => ({
    id: row.id,
    user: { id: row.user_id, email: row.email },
    plan_type: row.plan_type,
    amount_cents: row.amount_cents,
    amount_refunded_cents: row.amount_refunded_cents,
    currency: row.currency,
    status: statusOf(row),
    provider: row.provider,
    provider_payment_id: row.provider_payment_id,
    provider_charge_id: row.provider_charge_id,
    invoice_number: row.invoice === null ? null : invoiceNumber(row.invoice),
    created_date: row.created_at,
  });

  /** A page of payments, newest first, by part of the payer's email, status and period. */
  async function search({ email, status, from, to, page, per_page }: AdminPaymentQuery) {
    const base = withUser()
      .$if(email !== '', (q) => q.where(emailContains('users.email', email)))
      .$if(status === 'pending' || status === 'failed', (q) =>
        q.where('payments.status', '=', status as 'pending' | 'failed'),
      )
      .$if(status === 'succeeded', (q) =>
        q
          .where('payments.status', '=', 'succeeded')
          .where('payments.amount_refunded_cents', '=', 0),
      )
      .$if(status === 'partially_refunded', (q) =>
        q
          .where('payments.status', '=', 'succeeded')
          .where('payments.amount_refunded_cents', '>', 0)
          .where((eb) =>
            eb('payments.amount_refunded_cents', '<', eb.ref('payments.amount_cents')),
          ),
      )
      .$if(status === 'refunded', (q) =>
        q
          .where('payments.status', '=', 'succeeded')
          .where((eb) =>
            eb('payments.amount_refunded_cents', '>=', eb.ref('payments.amount_cents')),
          ),
      )
      .$if(from !== undefined, (q) => q.where('payments.created_at', '>=', `${from}T00:00:00.000Z`))
      .$if(to !== undefined, (q) => q.where('payments.created_at', '<', nextDay(to ?? '')));
    const { rows, ...paging } = await pageOf(
      base,
      (q) => q.select(columns).orderBy('payments.created_at', 'desc').orderBy('payments.id'),
      { page, per_page },
    );
    return { items: rows.map((row) => toAdminPayment(row as Row)), ...paging };
  }

  const toAdminRefund = (refund: Refund) => ({
    id: refund.id,
    amount_cents: refund.amount_cents,
    currency: refund.currency,
    status: refund.status,
    reason: refund.reason,
    characters: refund.characters as RefundCharacters,
    characters_taken: refund.characters_taken,
    provider_refund_id: refund.provider_refund_id,
    message: refund.message,
    actor_email: refund.actor_email,
    created_date: refund.created_at,
  });

  /** A payment with its payer, invoice and refunds, newest first. */
  async function detail(id: string): Promise<AdminPaymentDetail | undefined> {
    const row = (await withUser()
      .select(columns)
      .where('payments.id', '=', id)
      .executeTakeFirst()) as Row | undefined;
    if (!row) return undefined;
    const refunds = await db
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', '=', id)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return {
      ...toAdminPayment(row),
      message: row.message,
      card_name: row.card_name,
      count_characters:
        row.count_characters ??
        (await plans.catalogue())[row.plan_type as PaidPlanType]?.count_characters ??
        0,
      invoice_date: row.invoice_date,
      refunds: refunds.map(toAdminRefund),
    };
  }

  return { search, detail };
}
