import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

const SUCCESS = 'Payment successful! You will receive an invoice in the mail!';

/** Fills the billing settings through the API, as the account page would have. */
async function fillBilling(token: string) {
  const response = await fetch(`${session.baseUrl}/api/account/invoice_info`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-requested-with': 'parla',
    },
    body: JSON.stringify({
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      address: {
        country: 'GB',
        state: null,
        city: 'London',
        line1: '1 Analytical Row',
        line2: null,
        postal_code: null,
      },
      tax: { type: null, code: null },
    }),
  });
  expect(response.status).toBe(200);
}

async function enterCard(page: Page, number: string) {
  await page.getByLabel('Name on card').fill('Ada Lovelace King');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
}

describe('checkout with the built-in test provider (SPEC §2, §4, §5, §8)', () => {
  it('an unknown type goes to /pricing', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await page.goto('/account/checkout?type=gold');
    await page.waitForURL((url) => url.pathname === '/pricing');
    expectNoPageErrors(page);
  });

  it('without billing details the pay button stays disabled and links to the billing settings', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/account/checkout?type=basic');
    await enterCard(page, '4242 4242 4242 4242');
    expect(await page.getByRole('button', { name: 'Pay now' }).isDisabled()).toBe(true);
    const billing = page.getByRole('link', { name: 'Edit billing details' });
    expect(await billing.getAttribute('href')).toBe('/account#billingSettings');
    expectNoPageErrors(page);
  });

  it('a declined card shows the provider message and changes nothing', async () => {
    const user = await newUser('FREE');
    await fillBilling(user.token);
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/account/checkout?type=premium');
    await enterCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await visit(page, '/account/plan');
    await page.getByRole('heading', { level: 2, name: 'Free' }).waitFor();
    expectNoPageErrors(page);
  });

  it('buys BASIC with 4242 4242 4242 4242, then My Plan shows it', async () => {
    const user = await newUser('FREE');
    await fillBilling(user.token);
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    // The type is case-insensitive.
    await visit(page, '/account/checkout?type=BASIC');
    await page.getByText('Test mode').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Basic plan' }).waitFor();
    const pay = page.getByRole('button', { name: 'Pay now' });
    expect(await pay.isDisabled()).toBe(true);

    // Name on card: required, then at least 10 characters, shown once touched.
    await page.getByLabel('Name on card').fill('Ada');
    await page.getByLabel('Name on card').blur();
    await page.getByText('Name on card must be at least 10 characters long.').waitFor();
    await enterCard(page, '4242 4242 4242 4242');
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('button')).some(
        (button) => button.textContent === 'Pay now' && !button.disabled,
      ),
    );
    await expectAccessible(page);
    await pay.click();
    await page.getByText(SUCCESS).waitFor();
    // The card is saved now: shown, with edit and cancel editing.
    await page.getByText(/Saved card: Visa ending in 4242/).waitFor();
    await page.getByRole('button', { name: 'Edit card' }).click();
    await page.getByLabel('Card number').waitFor();
    await page.getByRole('button', { name: 'Cancel editing' }).click();
    await page.getByLabel('Card number').waitFor({ state: 'detached' });

    await visit(page, '/account/plan');
    expect(pathOf(page)).toBe('/account/plan');
    await page.getByRole('heading', { level: 2, name: 'Basic' }).waitFor();
    await page.getByText('CURRENTLY').waitFor();
    await page.getByText('MONTHLY').waitFor();
    // The bar has no width yet (nothing used), so it is attached but not visible.
    await page.getByRole('progressbar', { name: 'Characters used' }).waitFor({ state: 'attached' });
    const buy = page.getByRole('link', { name: 'BUY NOW' });
    expect(await buy.getAttribute('href')).toBe('/pricing');
    expectNoPageErrors(page);
  });
});
