import {
  ADMIN_PAYMENT_MESSAGES,
  ErrorResponseSchema,
  InvoiceListSchema,
  InvoiceParamsSchema,
  invoiceNumber,
  PdfBodySchema,
} from '@parla/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CompanyDetails } from '../../config.js';
import type { Db } from '../../db/database.js';
import { sendInvoicePdf } from '../../http/invoice-pdf.js';
import { createInvoiceRepository } from '../../services/payments/invoice-repository.js';
import type { PlanStore } from '../../services/plans/plan-store.js';

export interface InvoiceRoutesOptions {
  db: Db;
  plans: PlanStore;
  company: CompanyDetails;
}

const bearer = [{ bearerAuth: [] }];
const errors = { '4xx': ErrorResponseSchema };

/** `PARLA-000042.pdf` (or `PARLA-000042`, or `42`) → 42; anything else → undefined. */
function numberOf(name: string): number | undefined {
  const match = /^(?:PARLA-)?(\d{1,12})(?:\.pdf)?$/i.exec(name);
  return match?.[1] ? Number(match[1]) : undefined;
}

/**
 * GET /plan/invoices and GET /plan/invoices/{number}.pdf (issue 31 §5): the signed-in user's
 * own invoices for My Plan, and each as PDF. Another user's number answers 404, as a number
 * that does not exist: nothing tells them apart.
 */
export const invoiceRoutes: FastifyPluginAsyncZod<InvoiceRoutesOptions> = async (app, options) => {
  const { db } = options;
  const invoices = createInvoiceRepository(db);

  app.get(
    '/invoices',
    {
      onRequest: [app.requireUser],
      schema: {
        tags: ['plan'],
        summary: "The user's invoices, newest first, with what was refunded of each",
        security: bearer,
        response: { 200: InvoiceListSchema, ...errors },
      },
    },
    async (request) => {
      const rows = await invoices.listOfUser(request.user.id);
      return {
        invoices: rows.map((row) => {
          const number = invoiceNumber(row.number);
          return {
            number,
            date: row.issued_at,
            plan_type: row.plan_type,
            amount_cents: row.amount_cents,
            refunded_cents: row.refunded_cents,
            currency: row.currency,
            url: `/api/plan/invoices/${number}.pdf`,
          };
        }),
      };
    },
  );

  app.get(
    '/invoices/:number',
    {
      onRequest: [app.requireUser],
      schema: {
        tags: ['plan'],
        summary: 'One of the user’s invoices as PDF (`PARLA-000042.pdf`), refunds as credit notes',
        security: bearer,
        params: InvoiceParamsSchema,
        produces: ['application/pdf'],
        response: { 200: PdfBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const number = numberOf(request.params.number);
      const invoice =
        number === undefined ? undefined : await invoices.findOfUser(number, request.user.id);
      if (!invoice) {
        return reply.code(404).send({ message: ADMIN_PAYMENT_MESSAGES.invoiceNotFound });
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
