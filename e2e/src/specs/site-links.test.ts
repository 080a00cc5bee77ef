import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';

const session = useBrowser();

const LANGUAGES = [
  { prefix: '', lang: 'en', home: 'Home' },
  { prefix: '/fr', lang: 'fr', home: 'Accueil' },
  { prefix: '/de', lang: 'de', home: 'Startseite' },
  { prefix: '/es', lang: 'es', home: 'Inicio' },
  { prefix: '/ar', lang: 'ar', home: 'الرئيسية' },
];

/** The addresses the header and footer link to, as the browser resolves them. */
async function headerAndFooterLinks(page: import('playwright-core').Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLAnchorElement>('header a[href], footer a[href]'),
      (link) => link.href,
    ),
  );
}

describe('header and footer links in every language (issue 18 item 6)', () => {
  it('every link leads to a page of its language that loads (no 404), and passes axe', async () => {
    const page = await session.newPage();
    const internal = new Map<string, string>();
    const external = new Set<string>();
    for (const language of LANGUAGES) {
      await visit(page, `${language.prefix}/convertor`);
      // The chrome speaks the page's language.
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.lang);
      await page.getByRole('contentinfo').getByRole('link', { name: language.home }).waitFor();
      for (const href of await headerAndFooterLinks(page)) {
        const url = new URL(href);
        if (url.origin === session.baseUrl) internal.set(url.pathname, language.lang);
        else external.add(href);
      }
    }
    // Home, Pricing, Blog, Contact, Sitemap, Get Started, three editors, terms, privacy...
    expect(internal.size).toBeGreaterThanOrEqual(LANGUAGES.length * 8);

    for (const [path, lang] of internal) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(400);
      await visit(page, path);
      const landed = new URL(page.url()).pathname;
      // A link is never "any other path" quietly showing the convertor instead.
      expect(landed === path || (path === '/' && landed === '/convertor'), path).toBe(true);
      const h1 = await page.getByRole('heading', { level: 1 }).first().textContent();
      expect(h1?.trim(), path).not.toBe('');
      expect(await page.getByText('Something went wrong').count(), path).toBe(0);
      if (path.startsWith('/fr/') || path.startsWith('/de/') || path.startsWith('/es/')) {
        expect(await page.evaluate(() => document.documentElement.lang), path).toBe(lang);
      }
    }

    // The social links go to the networks themselves, over https, in a new tab.
    expect(external.size).toBe(4);
    for (const href of external)
      expect(href, href).toMatch(/^https:\/\/(x|www\.linkedin|www\.youtube|github)\.com\//);
    expectNoPageErrors(page);
  });
});
