import type { Db } from '../../db/database.js';

/** Invoices, as My Plan and the console read them (payment-repository.ts writes them). */
export function createInvoiceRepository(db: Db) {
  return {
    /** The invoice of a payment (none while it has not succeeded). */
    findByPayment: (paymentId: string) =>
      db.selectFrom('invoices').selectAll().where('payment_id', '=', paymentId).executeTakeFirst(),

    /** The invoice with that number, when it is the user's. */
    findOfUser: (number: number, userId: string) =>
      db
        .selectFrom('invoices')
        .selectAll()
        .where('number', '=', number)
        .where('user_id', '=', userId)
        .executeTakeFirst(),

    /**
     * The user's invoices, newest first, each with what the provider refunded of its payment
     * (a pending refund is not yet the user's money).
     */
    async listOfUser(userId: string) {
      const rows = await db
        .selectFrom('invoices')
        .leftJoin('payments', 'payments.id', 'invoices.payment_id')
        .select([
          'invoices.number',
          'invoices.issued_at',
          'invoices.plan_type',
          'invoices.amount_cents',
          'invoices.currency',
          'payments.id as payment_id',
        ])
        .where('invoices.user_id', '=', userId)
        .orderBy('invoices.number', 'desc')
        .execute();
      const refunded = new Map<string, number>();
      const ids = rows.flatMap((row) => (row.payment_id ? [row.payment_id] : []));
      if (ids.length > 0) {
        const sums = await db
          .selectFrom('refunds')
          .select((eb) => ['payment_id', eb.fn.sum<number | string>('amount_cents').as('cents')])
          .where('payment_id', 'in', ids)
          .where('status', '=', 'succeeded')
          .groupBy('payment_id')
          .execute();
        for (const sum of sums) refunded.set(sum.payment_id, Number(sum.cents));
      }
      return rows.map(({ payment_id, ...row }) => ({
        ...row,
        refunded_cents: payment_id ? (refunded.get(payment_id) ?? 0) : 0,
      }));
    },
  };
}
