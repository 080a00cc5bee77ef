import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

const WIDE = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

/** The plans' cards, once their words (a chunk of their own) are there. */
async function cards(page: Page, firstPlan: string) {
  await page.getByRole('region', { name: firstPlan }).getByRole('listitem').first().waitFor();
}

/** No sideways scroll, and every card inside the window (issue 33 item 6: works at 360 px). */
async function expectFits(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  const width = page.viewportSize()?.width ?? 0;
  for (const box of await page.locator('section[aria-labelledby^="plan-"]').all()) {
    const rect = await box.boundingBox();
    expect(rect?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((rect?.x ?? 0) + (rect?.width ?? width + 1)).toBeLessThanOrEqual(width);
  }
}

describe('pricing (SPEC §2 "Pricing")', () => {
  it('signed out: three cards, MOST POPULAR on premium, every button to /auth/login', async () => {
    const page = await session.newPage();
    await visit(page, '/pricing');
    for (const plan of ['Basic', 'Premium', 'Business']) {
      await page.getByRole('heading', { level: 2, name: plan }).waitFor();
    }
    const premium = page.getByRole('region', { name: 'Premium' });
    await premium.getByText('MOST POPULAR').waitFor();
    expect(await page.getByText('MOST POPULAR').count()).toBe(1);
    // Prices in dollars from /plan/info, and the real voice catalogue's counts.
    const info = (await (await page.request.get('/api/plan/info')).json()) as Record<
      string,
      { price: number }
    >;
    await premium.getByText(`$${info.premium?.price}`).waitFor();
    await premium.getByText(/^\d[\d,]* voices? in \d[\d,]* languages?$/).waitFor();
    for (const plan of ['Basic', 'Premium', 'Business']) {
      const link = page.getByRole('link', { name: `Choose ${plan}` });
      expect(await link.getAttribute('href')).toBe('/auth/login');
    }
    expectNoPageErrors(page);
  });

  it('signed in: each button goes to its checkout, as an upgrade from Free', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/pricing');
    await page.getByRole('banner').getByRole('button', { name: user.email }).waitFor();
    for (const plan of ['basic', 'premium', 'business']) {
      const title = plan.charAt(0).toUpperCase() + plan.slice(1);
      const link = page.getByRole('link', { name: `Upgrade to ${title}` });
      expect(await link.getAttribute('href')).toBe(`/account/checkout?type=${plan}`);
    }
    await page.getByRole('region', { name: 'Free' }).getByText('Current plan').waitFor();
    await page.getByRole('link', { name: 'Upgrade to Business' }).click();
    await page.waitForURL((url) => url.pathname === '/account/checkout');
    await page.getByRole('heading', { level: 2, name: 'Business plan' }).waitFor();
    expectNoPageErrors(page);
  });
});

// Issue 33 item 6: a Free column, the plans' real differences, the current plan marked with
// Upgrade or Change; at 1440 px and 360 px, in English and Arabic.
const WORDS = {
  en: {
    path: '/pricing',
    free: 'Free',
    premium: 'Premium',
    current: 'Current plan',
    upgrade: 'Upgrade to Business',
    change: 'Change to Basic',
    noDocuments: 'No documents (audiobooks)',
    startFree: 'Start for free',
  },
  ar: {
    path: '/ar/pricing',
    free: 'المجانية',
    premium: 'المميزة',
    current: 'خطتك الحالية',
    upgrade: 'الترقية إلى الأعمال',
    change: 'التغيير إلى الأساسية',
    noDocuments: 'لا مستندات (كتب صوتية)',
    startFree: 'ابدأ مجانًا',
  },
} as const;

describe.each([
  ['1440 px', WIDE],
  ['360 px', PHONE],
] as const)('the plans compared at %s', (_, device) => {
  describe.each(['en', 'ar'] as const)('in %s', (language) => {
    const words = WORDS[language];

    it('shows a Free column with what each plan really allows, and fits the screen', async () => {
      const page = await session.newPage(device);
      await visit(page, words.path);
      await cards(page, words.free);
      const free = page.getByRole('region', { name: words.free });
      await free.getByText(words.noDocuments).waitFor();
      const start = free.getByRole('link', { name: words.startFree });
      expect(await start.getAttribute('href')).toBe(
        language === 'en' ? '/convertor' : '/ar/convertor',
      );
      expect(await page.locator('section[aria-labelledby^="plan-"]').count()).toBe(4);
      await expectFits(page);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });

    it('marks the current plan of a paying user and offers Upgrade or Change', async () => {
      const user = await newUser('PREMIUM');
      const page = await session.newPage(device);
      await setTokenCookie(page, user.token, session.baseUrl);
      await visit(page, words.path);
      await cards(page, words.free);
      const premium = page.getByRole('region', { name: words.premium });
      await premium.getByText(words.current).waitFor();
      expect(await page.getByText(words.current).count()).toBe(1);
      const upgrade = page.getByRole('link', { name: words.upgrade });
      expect(await upgrade.getAttribute('href')).toBe('/account/checkout?type=business');
      const change = page.getByRole('link', { name: words.change });
      expect(await change.getAttribute('href')).toBe('/account/checkout?type=basic');
      await expectFits(page);
      await expectAccessible(page);
      expectNoPageErrors(page);
    });
  });
});
