import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';

const session = useBrowser();
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true };

describe('mobile navigation at 360 px', () => {
  it('collapses the navigation behind a burger that opens and follows links', async () => {
    const page = await session.newPage(PHONE);
    await visit(page, '/convertor');
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);

    const burger = page.getByRole('button', { name: 'Open navigation' });
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    await burger.click();
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await mobileNav.waitFor();
    expect(
      await page.getByRole('button', { name: 'Close navigation' }).getAttribute('aria-expanded'),
    ).toBe('true');
    for (const link of ['Home', 'Pricing', 'Blog', 'Contact', 'Login', 'Register']) {
      expect(await mobileNav.getByRole('link', { name: link }).isVisible()).toBe(true);
    }
    await expectAccessible(page);

    await mobileNav.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForURL((url) => url.pathname === '/pricing');
    await mobileNav.waitFor({ state: 'detached' });
    expectNoPageErrors(page);
  });

  it('never scrolls sideways', async () => {
    const page = await session.newPage(PHONE);
    for (const path of ['/convertor', '/pricing', '/contact', '/sitemap', '/auth/login']) {
      await visit(page, path);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
