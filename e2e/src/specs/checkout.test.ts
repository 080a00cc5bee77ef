import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';
import { newUser, setTokenCookie, TEST_BILLING } from '../harness/users.js';

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
    body: JSON.stringify(TEST_BILLING),
  });
  expect(response.status).toBe(200);
}

const LABELS = {
  nameOnCard: 'Name on card',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
};

async function enterCard(page: Page, number: string, labels = LABELS) {
  await page.getByLabel(labels.nameOnCard).fill('Ada Lovelace King');
  await page.getByLabel(labels.cardNumber).fill(number);
  await page.getByLabel(labels.expiry).fill('12/34');
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

// Issue 33 item 6: with an active plan, Pay asks "Change your plan?" first; the question comes
// into view and takes the focus (it appeared below the fold, and the click seemed to do nothing).
const WIDE = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };
const WORDS = {
  en: {
    first: '/pricing',
    labels: LABELS,
    pay: 'Pay now',
    question: 'Change your plan?',
    cancel: 'Cancel',
  },
  ar: {
    first: '/ar/pricing',
    labels: {
      nameOnCard: 'الاسم على البطاقة',
      cardNumber: 'رقم البطاقة',
      expiry: 'تاريخ الانتهاء (MM/YY)',
    },
    pay: 'ادفع الآن',
    question: 'هل تريد تغيير خطتك؟',
    cancel: 'إلغاء',
  },
} as const;

describe.each([
  ['1440 px', WIDE],
  ['360 px', PHONE],
] as const)('changing an active plan at %s', (_, device) => {
  it.each(['en', 'ar'] as const)(
    'in %s: the question comes into view with the focus; Cancel pays nothing',
    async (language) => {
      const words = WORDS[language];
      const user = await newUser('BASIC');
      await fillBilling(user.token);
      const page = await session.newPage(device);
      await setTokenCookie(page, user.token, session.baseUrl);
      // A page read in a language makes it the language of the pages without a prefix.
      await visit(page, words.first);
      await visit(page, '/account/checkout?type=premium');
      await enterCard(page, '4242 4242 4242 4242', words.labels);
      const pay = page.getByRole('button', { name: words.pay });
      await page.waitForFunction(
        (name) =>
          Array.from(document.querySelectorAll('button')).some(
            (button) => button.textContent === name && !button.disabled,
          ),
        words.pay,
      );
      await pay.click();
      const question = page.getByRole('alertdialog', { name: words.question });
      await question.waitFor();
      const cancel = question.getByRole('button', { name: words.cancel });
      await page.waitForFunction(() => {
        const dialog = document.querySelector('[role="alertdialog"]');
        if (!dialog?.contains(document.activeElement)) return false;
        const box = dialog.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      });
      expect(await cancel.evaluate((button) => button === document.activeElement)).toBe(true);
      await expectAccessible(page);
      // Enter on the focused Cancel: nothing is paid, the focus is back on Pay.
      await page.keyboard.press('Enter');
      await question.waitFor({ state: 'detached' });
      await page.waitForFunction((name) => document.activeElement?.textContent === name, words.pay);
      const plan = (await (
        await page.request.get('/api/account/profile', {
          headers: { authorization: `Bearer ${user.token}` },
        })
      ).json()) as { plan: { type: string } };
      expect(plan.plan.type).toBe('BASIC');
      expectNoPageErrors(page);
    },
  );
});
