import * as z from 'zod/mini';
import { AdminPageQuerySchema, AdminReasonSchema } from './admin.js';
import { DateTimeSchema, KeySchema, noNul, oneOf } from './fields.js';

// The console's payments (issue 31 §5, docs/api.md "Operator console API", decision 051) -------
//
//   GET  /api/admin/payments?email=&status=&from=&to=&page=&per_page=  AdminPaymentListSchema
//   GET  /api/admin/payments/{id}                    AdminPaymentDetailSchema
//   POST /api/admin/payments/{id}/refunds            AdminRefundInputSchema → AdminPaymentDetailSchema
//                                                    (Idempotency-Key header required)
//   GET  /api/admin/payments/{id}/invoice.pdf        the invoice as PDF, its refunds as credit lines
//
// And the user's side (My Plan), with a login token:
//
//   GET  /api/plan/invoices                          InvoiceListSchema (the user's own, newest first)
//   GET  /api/plan/invoices/{number}.pdf             one of them as PDF (another user's: 404)

export const ADMIN_PAYMENT_MESSAGES = {
  paymentNotFound: 'There is no payment with this id.',
  invoiceNotFound: 'There is no invoice with this number.',
  noInvoice: 'This payment has no invoice: only a succeeded payment has one.',
  notRefundable: 'Only a succeeded payment can be refunded.',
  fullyRefunded: 'amount_cents: this payment is already fully refunded.',
  amountPositive: 'amount_cents must be a whole number of cents above zero.',
  amountOverRest: (rest: number) =>
    `amount_cents: at most ${rest} cents of this payment are left to refund.`,
  charactersChoice: 'characters must be one of all, proportional, none.',
  emailTooLong: 'email is at most 200 characters.',
  date: (field: string) => `${field} must be a date (YYYY-MM-DD).`,
  idempotencyKey:
    'The Idempotency-Key header is one key per refund: 8 to 200 letters, digits or _ : . -',
  keyReused: 'This Idempotency-Key was used for another refund: send a new key.',
  refundRefused: (message: string) => `The payment provider refused the refund: ${message}`,
  refundInProgress: 'This refund is still being processed by the payment provider; try again.',
} as const;

/**
 * A payment's state as the console filters it: the row's status, and for a succeeded one how
 * much of it was refunded.
 */
export const ADMIN_PAYMENT_STATUSES = [
  'pending',
  'succeeded',
  'failed',
  'partially_refunded',
  'refunded',
] as const;
export type AdminPaymentStatus = (typeof ADMIN_PAYMENT_STATUSES)[number];

/** What a refund does with the characters the payment gave. */
export const REFUND_CHARACTERS = ['all', 'proportional', 'none'] as const;
export type RefundCharacters = (typeof REFUND_CHARACTERS)[number];

const day = (field: string) =>
  z.optional(
    z.string({ error: ADMIN_PAYMENT_MESSAGES.date(field) }).check(
      z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: ADMIN_PAYMENT_MESSAGES.date(field) }),
      z.refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), {
        error: ADMIN_PAYMENT_MESSAGES.date(field),
      }),
    ),
  );

export const AdminPaymentQuerySchema = z.object({
  /** Part of the payer's email address; empty lists every payment. */
  email: z._default(
    z
      .string()
      .check(z.trim(), z.maxLength(200, { error: ADMIN_PAYMENT_MESSAGES.emailTooLong }), noNul),
    '',
  ),
  status: z.optional(oneOf('status', ADMIN_PAYMENT_STATUSES)),
  /** The first and last day (UTC, inclusive) of the period the payment was made in. */
  from: day('from'),
  to: day('to'),
  ...AdminPageQuerySchema.shape,
});
export type AdminPaymentQuery = z.infer<typeof AdminPaymentQuerySchema>;

export const AdminPaymentParamsSchema = z.object({ id: KeySchema });

/** A payment as the console lists it. */
export const AdminPaymentSchema = z.object({
  id: z.string(),
  /** The payer (a deleted account's payments are deleted with it; its invoices stay). */
  user: z.object({ id: z.string(), email: z.string() }),
  plan_type: z.string(),
  amount_cents: z.number(),
  amount_refunded_cents: z.number(),
  currency: z.string(),
  status: z.enum(ADMIN_PAYMENT_STATUSES),
  provider: z.string(),
  /** The provider's payment (Stripe PaymentIntent `pi_…`) and charge (`ch_…`). */
  provider_payment_id: z.nullable(z.string()),
  provider_charge_id: z.nullable(z.string()),
  /** PARLA-000042, for a succeeded payment. */
  invoice_number: z.nullable(z.string()),
  created_date: DateTimeSchema,
});
export type AdminPayment = z.infer<typeof AdminPaymentSchema>;

export const AdminPaymentListSchema = z.object({
  items: z.array(AdminPaymentSchema),
  total: z.number(),
  page: z.number(),
  per_page: z.number(),
});
export type AdminPaymentList = z.infer<typeof AdminPaymentListSchema>;

export const AdminRefundSchema = z.object({
  id: z.string(),
  amount_cents: z.number(),
  currency: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  reason: z.string(),
  characters: z.enum(REFUND_CHARACTERS),
  /** The characters taken from the user (never more than they had left). */
  characters_taken: z.number(),
  provider_refund_id: z.nullable(z.string()),
  message: z.nullable(z.string()),
  actor_email: z.nullable(z.string()),
  created_date: DateTimeSchema,
});
export type AdminRefund = z.infer<typeof AdminRefundSchema>;

export const AdminPaymentDetailSchema = z.object({
  ...AdminPaymentSchema.shape,
  /** The provider's message of a failed payment. */
  message: z.nullable(z.string()),
  card_name: z.nullable(z.string()),
  /** The characters this payment gave. */
  count_characters: z.number(),
  invoice_date: z.nullable(DateTimeSchema),
  refunds: z.array(AdminRefundSchema),
});
export type AdminPaymentDetail = z.infer<typeof AdminPaymentDetailSchema>;

/**
 * POST /api/admin/payments/{id}/refunds. `amount_cents` defaults to all that is left to refund;
 * `characters`: take back all the characters the payment gave, the refunded share of them, or
 * none (never below zero).
 */
export const AdminRefundInputSchema = z.object({
  amount_cents: z.optional(
    z
      .number({ error: ADMIN_PAYMENT_MESSAGES.amountPositive })
      .check(
        z.int({ error: ADMIN_PAYMENT_MESSAGES.amountPositive }),
        z.positive({ error: ADMIN_PAYMENT_MESSAGES.amountPositive }),
        z.maximum(100_000_000, { error: ADMIN_PAYMENT_MESSAGES.amountPositive }),
      ),
  ),
  reason: AdminReasonSchema,
  characters: z.enum(REFUND_CHARACTERS, { error: ADMIN_PAYMENT_MESSAGES.charactersChoice }),
});
export type AdminRefundInput = z.infer<typeof AdminRefundInputSchema>;

/** The refund's key: required, so a retried request never refunds twice. */
export const AdminRefundHeadersSchema = z.object({
  'idempotency-key': z
    .string({ error: ADMIN_PAYMENT_MESSAGES.idempotencyKey })
    .check(z.regex(/^[\w:.-]{8,200}$/, { error: ADMIN_PAYMENT_MESSAGES.idempotencyKey })),
});

// My Plan's invoices --------------------------------------------------------------------------

export const InvoiceSchema = z.object({
  /** PARLA-000042 */
  number: z.string(),
  date: DateTimeSchema,
  plan_type: z.string(),
  amount_cents: z.number(),
  refunded_cents: z.number(),
  currency: z.string(),
  /** Where the PDF is: /api/plan/invoices/PARLA-000042.pdf */
  url: z.string(),
});
export type Invoice = z.infer<typeof InvoiceSchema>;
export const InvoiceListSchema = z.object({ invoices: z.array(InvoiceSchema) });
export type InvoiceList = z.infer<typeof InvoiceListSchema>;

export const InvoiceParamsSchema = z.object({ number: KeySchema });

/** An invoice's PDF, answered as it is. */
export const PdfBodySchema = z.string().register(z.globalRegistry, {
  format: 'binary',
  description: 'The invoice as a PDF document',
});
