import {
  ADMIN_PAYMENT_MESSAGES,
  type AdminPayment,
  type AdminPaymentDetail,
  AdminPaymentDetailSchema,
  AdminPaymentListSchema,
  AdminPaymentParamsSchema,
  type AdminPaymentQuery,
  AdminPaymentQuerySchema,
  type AdminPaymentStatus,
  AdminRefundHeadersSchema,
  AdminRefundInputSchema,
  ErrorResponseSchema,
  invoiceNumber,
  type PaidPlanType,
  PdfBodySchema,
  type RefundCharacters,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { CompanyDetails } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Payment, Refund } from '../../db/schema.js';
import { sendInvoicePdf } from '../../http/invoice-pdf.js';
import { createBackgroundTasks } from '../../lib/background.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import type { Actor } from '../../services/admin/audit-log.js';
import { refundMail } from '../../services/payments/invoice-mail.js';
import type { PaymentProvider } from '../../services/payments/payment-provider.js';
import { createRefundService, RefundError } from '../../services/payments/refund-service.js';
import type { PlanCatalogue } from '../../services/plans/plan-catalogue.js';
import { containing } from './users.js';

export interface AdminPaymentRoutesOptions {
  db: Db;
  mailer: Mailer;
  plans: PlanCatalogue;
  provider: PaymentProvider;
  company: CompanyDetails;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

/** The console's state of a payment: its status, and how much of a succeeded one was refunded. */
function statusOf(payment: Payment): AdminPaymentStatus {
  if (payment.status !== 'succeeded' || payment.amount_refunded_cents === 0) return payment.status;
  return payment.amount_refunded_cents >= payment.amount_cents ? 'refunded' : 'partially_refunded';
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString();

/**
 * /api/admin/payments (issue 31 §5, decision 051): every payment with its provider ids and
 * invoice, refunds whole or part through the provider, and the invoice as PDF. Registered
 * inside the console's plugin, so its guard checks every request first.
 */
export const adminPaymentRoutes: FastifyPluginAsyncZod<AdminPaymentRoutesOptions> = async (
  app,
  options,
) => {
  const { db } = options;
  // The user's mail leaves after the answer: a slow mail server never delays a refund.
  const background = createBackgroundTasks(app.log);
  app.addHook('onClose', () => background.drain());
  const refunds = createRefundService({
    db,
    provider: options.provider,
    plans: options.plans,
    onRefund: (refund, payment, user) => {
      if (!user) return;
      background.run('refund mail', async () => {
        const invoice = await db
          .selectFrom('invoices')
          .selectAll()
          .where('payment_id', '=', payment.id)
          .executeTakeFirst();
        const current = await db
          .selectFrom('payments')
          .selectAll()
          .where('id', '=', payment.id)
          .executeTakeFirstOrThrow();
        await options.mailer.send(refundMail(user.email, refund, current, invoice));
      });
    },
  });

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

  async function list({ email, status, from, to, page, per_page }: AdminPaymentQuery) {
    const base = withUser()
      .$if(email !== '', (q) =>
        q.where(sql<boolean>`users.email like ${containing(email.toLowerCase())} escape '\\'`),
      )
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
    const { total } = await base
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select(columns)
      .orderBy('payments.created_at', 'desc')
      .orderBy('payments.id')
      .limit(per_page)
      .offset((page - 1) * per_page)
      .execute();
    return {
      items: rows.map((row) => toAdminPayment(row as Row)),
      total: Number(total),
      page,
      per_page,
    };
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

  async function detail(id: string): Promise<AdminPaymentDetail | undefined> {
    const row = (await withUser()
      .select(columns)
      .where('payments.id', '=', id)
      .executeTakeFirst()) as Row | undefined;
    if (!row) return undefined;
    const rows = await db
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
        row.count_characters ?? options.plans[row.plan_type as PaidPlanType]?.count_characters ?? 0,
      invoice_date: row.invoice_date,
      refunds: rows.map(toAdminRefund),
    };
  }

  const actorOf = (request: FastifyRequest): Actor => ({
    id: request.user.id,
    email: request.user.email,
  });
  const notFound = { message: ADMIN_PAYMENT_MESSAGES.paymentNotFound };

  app.get(
    '/payments',
    {
      schema: {
        tags,
        summary:
          'Payments, newest first, by part of the payer’s email, status and period (from, to: days, UTC), a page at a time',
        security: bearer,
        querystring: AdminPaymentQuerySchema,
        response: { 200: AdminPaymentListSchema, ...errors },
      },
    },
    async (request) => list(request.query),
  );

  app.get(
    '/payments/:id',
    {
      schema: {
        tags,
        summary: "A payment with its provider's ids, plan, invoice number and refunds",
        security: bearer,
        params: AdminPaymentParamsSchema,
        response: { 200: AdminPaymentDetailSchema, ...errors },
      },
    },
    async (request, reply) => (await detail(request.params.id)) ?? reply.code(404).send(notFound),
  );

  app.post(
    '/payments/:id/refunds',
    {
      schema: {
        tags,
        summary:
          'Refund the payment, whole (no amount_cents) or part, through the provider; takes back all, a proportional part or none of its characters, and mails the user',
        security: bearer,
        params: AdminPaymentParamsSchema,
        headers: AdminRefundHeadersSchema,
        body: AdminRefundInputSchema,
        response: { 200: AdminPaymentDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const payment = await db
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!payment) return reply.code(404).send(notFound);
      try {
        await refunds.refund(
          payment,
          request.body,
          request.headers['idempotency-key'],
          actorOf(request),
        );
      } catch (error) {
        if (error instanceof RefundError) {
          const { field, message, status } = error;
          return reply
            .code(status)
            .send({ message, ...(field && { errors: [{ path: field, message }] }) });
        }
        throw error;
      }
      return detail(payment.id);
    },
  );

  app.get(
    '/payments/:id/invoice.pdf',
    {
      schema: {
        tags,
        summary: "The payment's invoice as PDF, its refunds as credit notes",
        security: bearer,
        params: AdminPaymentParamsSchema,
        produces: ['application/pdf'],
        response: { 200: PdfBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const invoice = await db
        .selectFrom('invoices')
        .selectAll()
        .where('payment_id', '=', request.params.id)
        .executeTakeFirst();
      if (!invoice) {
        const payment = await db
          .selectFrom('payments')
          .select('id')
          .where('id', '=', request.params.id)
          .executeTakeFirst();
        return reply
          .code(404)
          .send({ message: payment ? ADMIN_PAYMENT_MESSAGES.noInvoice : notFound.message });
      }
      return sendInvoicePdf(
        reply as unknown as FastifyReply,
        db,
        invoice,
        options.company,
        options.plans,
      );
    },
  );
};
