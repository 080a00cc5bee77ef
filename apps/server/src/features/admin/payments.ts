import {
  ADMIN_PAYMENT_MESSAGES,
  AdminPaymentDetailSchema,
  AdminPaymentListSchema,
  AdminPaymentParamsSchema,
  AdminPaymentQuerySchema,
  AdminRefundHeadersSchema,
  AdminRefundInputSchema,
  ErrorResponseSchema,
  PdfBodySchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompanyDetails } from '../../config.js';
import type { Db } from '../../db/database.js';
import { sendInvoicePdf } from '../../http/invoice-pdf.js';
import { createBackgroundTasks } from '../../lib/background.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import type { Actor } from '../../services/admin/audit-log.js';
import { createAdminPaymentRepository } from '../../services/payments/admin-payment-repository.js';
import { refundMail } from '../../services/payments/invoice-mail.js';
import { createInvoiceRepository } from '../../services/payments/invoice-repository.js';
import type { PaymentProvider } from '../../services/payments/payment-provider.js';
import { createPaymentRepository } from '../../services/payments/payment-repository.js';
import { createRefundService, RefundError } from '../../services/payments/refund-service.js';
import type { PlanStore } from '../../services/plans/plan-store.js';

export interface AdminPaymentRoutesOptions {
  db: Db;
  mailer: Mailer;
  plans: PlanStore;
  provider: PaymentProvider;
  company: CompanyDetails;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

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
  const consolePayments = createAdminPaymentRepository(db, options.plans);
  const payments = createPaymentRepository(db);
  const invoices = createInvoiceRepository(db);
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
        const invoice = await invoices.findByPayment(payment.id);
        const current = await payments.get(payment.id);
        await options.mailer.send(refundMail(user.email, refund, current, invoice));
      });
    },
  });

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
    async (request) => consolePayments.search(request.query),
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
    async (request, reply) =>
      (await consolePayments.detail(request.params.id)) ?? reply.code(404).send(notFound),
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
      const payment = await payments.find(request.params.id);
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
      return consolePayments.detail(payment.id);
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
      const invoice = await invoices.findByPayment(request.params.id);
      if (!invoice) {
        const payment = await payments.find(request.params.id);
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
