import { invoiceNumber } from '@parla/contract';
import type { FastifyReply } from 'fastify';
import type { CompanyDetails } from '../config.js';
import type { Db } from '../db/database.js';
import type { Invoice } from '../db/schema.js';
import { storedInvoicePdf } from '../services/payments/invoice-pdf.js';
import type { PlanStore } from '../services/plans/plan-store.js';

/**
 * Answers a stored invoice's PDF as a download named by its number (PARLA-000042.pdf): the
 * operator's (GET /api/admin/payments/{id}/invoice.pdf) and the user's
 * (GET /api/plan/invoices/{number}.pdf).
 */
export async function sendInvoicePdf(
  reply: FastifyReply,
  db: Db,
  invoice: Invoice,
  seller: CompanyDetails,
  plans: PlanStore,
) {
  const pdf = await storedInvoicePdf(db, invoice, seller, plans);
  return reply
    .type('application/pdf')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${invoiceNumber(invoice.number)}.pdf"`)
    .send(pdf);
}
