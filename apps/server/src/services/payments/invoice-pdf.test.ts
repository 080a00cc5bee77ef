import { describe, expect, it } from 'vitest';
import { readPdfText } from '../../../test/pdf-text.js';
import { fontRuns } from './invoice-fonts.js';
import { invoicePdf } from './invoice-pdf.js';

const seller = {
  name: 'Parla Voice Ltd',
  address: ['10 Speech Street', 'London'],
  taxId: null,
  email: 'billing@example.com',
};

function invoiceFor(name: string, city: string) {
  return {
    number: 7,
    payment_id: 'pay_1',
    user_id: 'u1',
    plan_type: 'BASIC',
    amount_cents: 900,
    currency: 'eur',
    issued_at: '2026-11-29T08:00:00.000Z',
    billing: JSON.stringify({
      name,
      phone: null,
      address: {
        country: null,
        state: null,
        city,
        line1: null,
        line2: null,
        postal_code: null,
      },
      tax: { type: null, code: null },
    }),
  };
}

describe('invoice PDF fonts', () => {
  it('prints names and places in their own script, as a reader reads them back', async () => {
    for (const [name, city] of [
      ['Zoë Łukasiewicz-Ørsted', 'Kraków'],
      ['Анна Каренина', 'Москва'],
      ['Ελένη Παπαδοπούλου', 'Αθήνα'],
      ['Nguyễn Thị Minh Khai', 'Hà Nội'],
      ['فاطمة', 'القاهرة'],
    ]) {
      const pdf = await invoicePdf({
        invoice: invoiceFor(name ?? '', city ?? ''),
        seller,
        characters: 500_000,
        paymentReference: 'pay_1',
        refunds: [],
      });
      const text = await readPdfText(pdf);
      expect(text).toContain('Total 9.00 EUR');
      // Letter for letter, in reading order (pdf.js may see a gap between two joined Arabic
      // letters' glyphs and read a space there: spaces are not compared).
      const letters = (line: string) => line.replace(/\s/g, '');
      expect(letters(text), name).toContain(letters(name ?? ''));
      expect(letters(text), city).toContain(letters(city ?? ''));
    }
  });

  it('cuts a line into runs of the font files that have its characters', () => {
    expect(fontRuns('Ada Lovelace', 'regular')).toEqual([
      { font: 'noto-sans-latin-regular', text: 'Ada Lovelace' },
    ]);
    // Spaces stay in the run they follow; a script another file covers starts a new run.
    expect(fontRuns('Ada Анна فاطمة', 'bold').map((run) => [run.font, run.text])).toEqual([
      ['noto-sans-latin-bold', 'Ada '],
      ['noto-sans-cyrillic-bold', 'Анна '],
      ['noto-sans-arabic-arabic-bold', 'فاطمة'],
    ]);
  });
});
