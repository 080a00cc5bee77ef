import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

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
    await premium.getByText(/^\d[\d,]* voices$/).waitFor();
    await premium.getByText(/^\d[\d,]* languages$/).waitFor();
    for (const plan of ['Basic', 'Premium', 'Business']) {
      const link = page.getByRole('link', { name: `Choose ${plan}` });
      expect(await link.getAttribute('href')).toBe('/auth/login');
    }
    expectNoPageErrors(page);
  });

  it('signed in: each button goes to its checkout', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/pricing');
    await page.getByRole('banner').getByRole('button', { name: user.email }).waitFor();
    for (const plan of ['basic', 'premium', 'business']) {
      const title = plan.charAt(0).toUpperCase() + plan.slice(1);
      const link = page.getByRole('link', { name: `Choose ${title}` });
      expect(await link.getAttribute('href')).toBe(`/account/checkout?type=${plan}`);
    }
    await page.getByRole('link', { name: 'Choose Business' }).click();
    await page.waitForURL((url) => url.pathname === '/account/checkout');
    await page.getByRole('heading', { level: 2, name: 'Business plan' }).waitFor();
    expectNoPageErrors(page);
  });
});
