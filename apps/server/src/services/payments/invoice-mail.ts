import { findCountry, invoiceNumber, PRODUCT_NAME, taxIdLabel } from '@parla/contract';
import type { Invoice } from '../../db/schema.js';
import type { Mail } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import type { billingOf } from '../accounts/user-repository.js';
import type { PlanTerms } from '../plans/plan-catalogue.js';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The invoice mailed after every successful payment (SPEC §4 "You will receive an invoice in the
 * mail!"): number, date, plan, amount and the billing details and tax id as they were when paid.
 */
/** An amount in cents as invoices print it: `19.00 USD`. */
export const money = (cents: number, currency: string) =>
  `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** A date as invoices print it: `29 November 2026` (UTC). */
export const invoiceDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * The buyer as an invoice names them, from the billing details it stored (written by the
 * settling transaction from billingOf, services/accounts/user-repository.ts): the lines of
 * the "billed to" block and the tax id (null: none given).
 */
export function invoiceBuyer(invoice: Invoice) {
  const billing = JSON.parse(invoice.billing) as ReturnType<typeof billingOf>;
  const { address, tax } = billing;
  const country = address.country
    ? (findCountry(address.country)?.country ?? address.country)
    : null;
  const lines = [
    billing.name,
    address.line1,
    address.line2,
    [address.postal_code, address.city].filter(Boolean).join(' '),
    address.state,
    country,
    billing.phone,
  ].filter((line): line is string => Boolean(line));
  const taxId = tax.type && tax.code ? `${taxIdLabel(tax.type)} ${tax.code}` : null;
  return { name: billing.name, lines, taxId };
}

export function invoiceMail(to: string, invoice: Invoice, terms: PlanTerms): Mail {
  const buyer = invoiceBuyer(invoice);
  const number = invoiceNumber(invoice.number);
  const amount = money(invoice.amount_cents, invoice.currency);
  const date = invoiceDate(invoice.issued_at);
  return {
    to,
    subject: `Your ${PRODUCT_NAME} invoice ${number}`,
    ...renderMail({
      title: `Invoice ${number}`,
      intro: [
        `Hello ${buyer.name ?? ''},`.replace(' ,', ','),
        `Thank you for your purchase. Your ${invoice.plan_type} plan is active.`,
        `Invoice number: ${number}`,
        `Date: ${date}`,
        `Plan: ${invoice.plan_type}, ${count(terms.count_characters)} characters, up to ${count(terms.count_characters_per_convert)} per conversion`,
        `Amount: ${amount} (subtotal ${amount}, total ${amount})`,
        `Billed to: ${buyer.lines.join(', ')}`,
        `Tax id: ${buyer.taxId ?? 'none'}`,
      ],
      outro: ['Keep this mail for your records. Reply to it if anything on it is wrong.'],
    }),
  };
}

/**
 * The mail a refund sends the buyer (issue 31 §5): the invoice it credits, the amount, what is
 * left of the payment, and the characters taken back.
 */
export function refundMail(
  to: string,
  refund: { amount_cents: number; currency: string; characters_taken: number; created_at: string },
  payment: { amount_cents: number; amount_refunded_cents: number },
  invoice: Invoice | undefined,
): Mail {
  const amount = money(refund.amount_cents, refund.currency);
  const number = invoice ? invoiceNumber(invoice.number) : null;
  const whole = payment.amount_refunded_cents >= payment.amount_cents;
  return {
    to,
    subject: `${PRODUCT_NAME}: ${amount} refunded${number ? ` (invoice ${number})` : ''}`,
    ...renderMail({
      title: `Refund of ${amount}`,
      intro: [
        'Hello,',
        `We refunded ${amount} of your payment${number ? ` (invoice ${number})` : ''} on ${invoiceDate(refund.created_at)}.`,
        whole
          ? 'Your payment is now fully refunded.'
          : `In all, ${money(payment.amount_refunded_cents, refund.currency)} of ${money(payment.amount_cents, refund.currency)} is refunded.`,
        refund.characters_taken > 0
          ? `${count(refund.characters_taken)} characters were taken back from your plan.`
          : 'Your characters stay as they were.',
        'The refund reaches your card within 5 to 10 days, depending on your bank. The invoice on My Plan shows it.',
      ],
      outro: ['Reply to this mail if you have any question about it.'],
    }),
  };
}
