import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, pathOf, useBrowser, visit, waitForApp } from '../harness/browser.js';

const session = useBrowser();

describe('navigation through the header', () => {
  it('follows Home, Pricing, Blog and Contact', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor');
    const nav = page.getByRole('navigation', { name: 'Main' });

    const stops = [
      { link: 'Pricing', path: '/pricing', heading: 'Plans and pricing', title: 'Pricing | Parla' },
      { link: 'Blog', path: '/blog', heading: 'Blog', title: 'Blog | Parla' },
      { link: 'Contact', path: '/contact', heading: 'Contact', title: 'Contact | Parla' },
      {
        link: 'Home',
        path: '/convertor',
        // No natural voice is installed on the test server (DEFAULT_VOICES=none).
        heading: 'Turn your text into speech',
        title: 'Text to speech convertor | Parla',
      },
    ];
    for (const stop of stops) {
      await nav.getByRole('link', { name: stop.link }).click();
      await page.waitForURL((url) => url.pathname === stop.path);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe(stop.heading);
      expect(await page.title()).toBe(stop.title);
      expect(await nav.getByRole('link', { name: stop.link }).getAttribute('aria-current')).toBe(
        'page',
      );
    }
    expectNoPageErrors(page);
  });

  it('the logo goes home', async () => {
    const page = await session.newPage();
    await visit(page, '/pricing');
    await page.getByRole('link', { name: 'Parla home' }).click();
    await page.waitForURL((url) => url.pathname === '/convertor');
    expectNoPageErrors(page);
  });

  it('the footer links lead to the sitemap and the legal pages', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor');
    const footer = page.getByRole('contentinfo');
    expect(await footer.getByText(`© ${new Date().getFullYear()} Parla Ltd`).count()).toBe(1);
    await footer.getByRole('link', { name: 'Sitemap' }).click();
    await page.waitForURL((url) => url.pathname === '/sitemap');
    await waitForApp(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Services' }).click();
    await page.waitForURL((url) => url.pathname === '/terms-of-services');
    expect(pathOf(page)).toBe('/terms-of-services');
    expectNoPageErrors(page);
  });
});
