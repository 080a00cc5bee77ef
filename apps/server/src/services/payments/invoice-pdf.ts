import { invoiceNumber, type PaidPlanType, PRODUCT_NAME } from '@parla/contract';
import PDFDocument from 'pdfkit';
import type { CompanyDetails } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Invoice } from '../../db/schema.js';
import type { PlanStore } from '../plans/plan-store.js';
import { fontRuns, invoiceFonts, type Weight } from './invoice-fonts.js';
import { invoiceBuyer, invoiceDate, money } from './invoice-mail.js';

export interface InvoicePdfInput {
  invoice: Invoice;
  seller: CompanyDetails;
  /** The characters the plan gave. */
  characters: number;
  /** The provider's payment id, printed as the payment reference. */
  paymentReference: string | null;
  /** Succeeded refunds of the payment, oldest first: each is a credit note. */
  refunds: Array<{ amount_cents: number; created_at: string }>;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The invoice as a PDF (pdfkit, decision 051): seller and buyer blocks, number and date, the
 * plan's line, subtotal, tax and total, and each refund as a numbered credit note
 * (`PARLA-000042-C1`) with the amount left paid. In Noto Sans (invoice-fonts.ts), so names and
 * addresses print in their own script; its text is real text a reader (and pdfjs in the tests)
 * reads.
 */
export function invoicePdf({
  invoice,
  seller,
  characters,
  paymentReference,
  refunds,
}: InvoicePdfInput): Promise<Buffer> {
  const number = invoiceNumber(invoice.number);
  const buyer = invoiceBuyer(invoice);
  const currency = invoice.currency;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Invoice ${number}`, Author: seller.name, Creator: PRODUCT_NAME },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const files of Object.values(invoiceFonts())) {
    for (const file of files) doc.registerFont(file.name, file.bytes);
  }
  /** A text in the runs of the fonts that have its characters (one `text` call for each). */
  const print = (
    text: string,
    weight: Weight,
    at: { x?: number; y?: number } = {},
    options: PDFKit.Mixins.TextOptions = {},
  ) => {
    const runs = fontRuns(text, weight);
    runs.forEach((run, index) => {
      const continued = index < runs.length - 1;
      doc.font(run.font);
      if (index === 0) doc.text(run.text, at.x, at.y, { ...options, continued });
      else doc.text(run.text, { continued });
    });
  };

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const half = width / 2;

  doc.fontSize(22);
  print(`Invoice ${number}`, 'bold', { x: left, y: 56 });
  doc.fontSize(10).moveDown(0.4);
  print(`Date of issue: ${invoiceDate(invoice.issued_at)}`, 'regular');
  if (paymentReference) print(`Payment reference: ${paymentReference}`, 'regular');
  print('Paid by card.', 'regular');

  // Seller and buyer, side by side.
  const top = doc.y + 18;
  const block = (title: string, lines: string[], x: number) => {
    doc.fontSize(10);
    print(title, 'bold', { x, y: top }, { width: half - 12 });
    for (const line of lines) print(line, 'regular', { x, y: doc.y }, { width: half - 12 });
    return doc.y;
  };
  const sellerEnd = block(
    'From',
    [
      seller.name,
      ...seller.address,
      ...(seller.taxId ? [`Tax id: ${seller.taxId}`] : []),
      seller.email,
    ],
    left,
  );
  const buyerEnd = block(
    'Billed to',
    [...buyer.lines, ...(buyer.taxId ? [`Tax id: ${buyer.taxId}`] : [])],
    left + half,
  );

  // The lines of the invoice.
  let y = Math.max(sellerEnd, buyerEnd) + 28;
  const row = (label: string, amount: string, bold = false) => {
    const weight = bold ? 'bold' : 'regular';
    doc.fontSize(10);
    print(label, weight, { x: left, y }, { width: width - 130 });
    const labelEnd = doc.y;
    print(amount, weight, { x: left + width - 120, y }, { width: 120, align: 'right' });
    y = Math.max(labelEnd, doc.y) + 6;
  };
  const rule = () => {
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor('#888888')
      .stroke();
    y += 8;
  };
  row('Description', 'Amount', true);
  rule();
  row(
    `${PRODUCT_NAME} ${invoice.plan_type} plan: ${count(characters)} characters`,
    money(invoice.amount_cents, currency),
  );
  rule();
  row('Subtotal', money(invoice.amount_cents, currency));
  row('Tax (0%)', money(0, currency));
  row('Total', money(invoice.amount_cents, currency), true);
  row('Amount paid', money(invoice.amount_cents, currency));

  if (refunds.length > 0) {
    y += 14;
    row('Credit notes (refunds)', '', true);
    rule();
    let refunded = 0;
    refunds.forEach((refund, index) => {
      refunded += refund.amount_cents;
      row(
        `Credit note ${number}-C${index + 1}, refunded on ${invoiceDate(refund.created_at)}`,
        `-${money(refund.amount_cents, currency)}`,
      );
    });
    rule();
    row('Total refunded', `-${money(refunded, currency)}`);
    row('Net amount paid', money(invoice.amount_cents - refunded, currency), true);
  }

  doc.fontSize(8).fillColor('#555555');
  print(
    `Questions about this invoice: ${seller.email}`,
    'regular',
    { x: left, y: y + 30 },
    { width },
  );
  doc.end();
  return done;
}

/** The PDF of a stored invoice, with its payment's reference and succeeded refunds. */
export async function storedInvoicePdf(
  db: Db,
  invoice: Invoice,
  seller: CompanyDetails,
  plans: PlanStore,
): Promise<Buffer> {
  const payment = invoice.payment_id
    ? await db
        .selectFrom('payments')
        .selectAll()
        .where('id', '=', invoice.payment_id)
        .executeTakeFirst()
    : undefined;
  const refunds = payment
    ? await db
        .selectFrom('refunds')
        .select(['amount_cents', 'created_at'])
        .where('payment_id', '=', payment.id)
        .where('status', '=', 'succeeded')
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    : [];
  return invoicePdf({
    invoice,
    seller,
    characters:
      payment?.count_characters ??
      (await plans.catalogue())[invoice.plan_type as PaidPlanType]?.count_characters ??
      0,
    paymentReference: payment?.provider_payment_id ?? null,
    refunds,
  });
}
