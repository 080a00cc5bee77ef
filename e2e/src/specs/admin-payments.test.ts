import { randomUUID } from 'node:crypto';
import { encodeTestCardToken } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { waitForMail } from '../harness/mail.js';
import { newAdmin, newUser, setTokenCookie, TEST_BILLING } from '../harness/users.js';

/*
 * The console's payments (issue 31 §5, decision 051): an administrator refunds part of a
 * payment in the browser; the user's My Plan shows the refund on the invoice and its PDF, and
 * the refund's mail arrives.
 */
const session = useBrowser();

const api = (token: string, method: string, path: string, body?: object, headers = {}) =>
  fetch(`${session.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-requested-with': 'parla',
      ...(body && { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body && { body: JSON.stringify(body) }),
  });

/** A user who bought BASIC with the test provider's 4242 card, as the checkout page would. */
async function buyer() {
  const user = await newUser('FREE');
  const billing = await api(user.token, 'PUT', '/api/account/invoice_info', TEST_BILLING);
  expect(billing.status).toBe(200);
  const token = encodeTestCardToken({
    number: '4242424242424242',
    brand: 'Visa',
    exp_month: 12,
    exp_year: 2099,
  });
  const paid = await api(
    user.token,
    'POST',
    '/api/plan/payment?is_update_card=false',
    { token, name_on_card: 'Ada Lovelace King', type: 'BASIC' },
    { 'idempotency-key': randomUUID() },
  );
  expect(paid.status).toBe(200);
  return user;
}

describe('the console’s payments (/admin/payments)', () => {
  it('refunds part of a payment: the user’s My Plan and their mail show it', async () => {
    const admin = await newAdmin();
    const user = await buyer();
    const page = await session.newPage();
    await setTokenCookie(page, admin.token, session.baseUrl);
    await visit(page, '/admin/payments');
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Payments' })
      .waitFor();
    await field(page, 'Payer’s email').fill(user.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByRole('row').filter({ hasText: user.email });
    await row.getByText('Succeeded').waitFor();
    await expectAccessible(page);
    await row.getByRole('link').first().click();
    await page.getByRole('heading', { level: 1, name: /^Payment of / }).waitFor();
    expect(await page.getByText(/^pi_test_/).count()).toBe(1);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund this payment' });
    await field(dialog, 'Amount to refund').fill('2');
    await field(dialog, 'Reason').fill('Goodwill after an outage');
    await dialog.getByRole('radio', { name: 'Take back the refunded share' }).check();
    await dialog.getByRole('button', { name: 'Review the refund' }).click();
    await dialog.getByText(`Refund $2 to ${user.email}?`, { exact: false }).waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Yes, refund $2' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Partially refunded').first().waitFor();
    await page.getByRole('cell', { name: 'Goodwill after an outage' }).waitFor();

    const mail = await waitForMail(user.email, /2\.00 USD refunded/);
    expect(mail.text).toContain('We refunded 2.00 USD of your payment');

    // The user's My Plan: the invoice with what was refunded, and its PDF.
    const userPage = await session.newPage();
    await setTokenCookie(userPage, user.token, session.baseUrl);
    await visit(userPage, '/account/plan');
    const invoices = userPage.getByRole('region', { name: 'Invoices' }).last();
    await invoices.getByRole('cell', { name: '$2' }).waitFor();
    const download = userPage.waitForEvent('download');
    await invoices.getByRole('button', { name: /^Download invoice PARLA-\d{6} \(PDF\)$/ }).click();
    expect((await download).suggestedFilename()).toMatch(/^PARLA-\d{6}\.pdf$/);
    await expectAccessible(userPage);
    expectNoPageErrors(page);
    expectNoPageErrors(userPage);
  });
});
