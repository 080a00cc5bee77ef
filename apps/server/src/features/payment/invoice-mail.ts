import { findCountry, invoiceNumber, PRODUCT_NAME, taxIdLabel } from '@parla/contract';
import type { Invoice } from '../../db/schema.js';
import type { Mail } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import type { billingOf } from '../../services/accounts/user-repository.js';
import type { PlanTerms } from '../../services/plans/plan-catalogue.js';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The invoice mailed after every successful payment (SPEC §4 "You will receive an invoice in the
 * mail!"): number, date, plan, amount and the billing details and tax id as they were when paid.
 */
export function invoiceMail(to: string, invoice: Invoice, terms: PlanTerms): Mail {
  // Written by the settling transaction from billingOf (services/accounts/user-repository.ts).
  const billing = JSON.parse(invoice.billing) as ReturnType<typeof billingOf>;
  const number = invoiceNumber(invoice.number);
  const amount = `${(invoice.amount_cents / 100).toFixed(2)} ${invoice.currency.toUpperCase()}`;
  const date = new Date(invoice.issued_at).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const { address, tax } = billing;
  const country = address.country
    ? (findCountry(address.country)?.country ?? address.country)
    : null;
  const billedTo = [
    billing.name,
    address.line1,
    address.line2,
    [address.postal_code, address.city].filter(Boolean).join(' '),
    address.state,
    country,
    billing.phone,
  ].filter((line): line is string => Boolean(line));
  const taxId = tax.type && tax.code ? `${taxIdLabel(tax.type)} ${tax.code}` : 'none';
  return {
    to,
    subject: `Your ${PRODUCT_NAME} invoice ${number}`,
    ...renderMail({
      title: `Invoice ${number}`,
      intro: [
        `Hello ${billing.name ?? ''},`.replace(' ,', ','),
        `Thank you for your purchase. Your ${invoice.plan_type} plan is active.`,
        `Invoice number: ${number}`,
        `Date: ${date}`,
        `Plan: ${invoice.plan_type}, ${count(terms.count_characters)} characters, up to ${count(terms.count_characters_per_convert)} per conversion`,
        `Amount: ${amount} (subtotal ${amount}, total ${amount})`,
        `Billed to: ${billedTo.join(', ')}`,
        `Tax id: ${taxId}`,
      ],
      outro: ['Keep this mail for your records. Reply to it if anything on it is wrong.'],
    }),
  };
}
