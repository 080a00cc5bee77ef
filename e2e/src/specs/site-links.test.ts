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

/** Pages already checked, by path: a link shared by every language is visited once. */
const visited = new Set<string>();
const external = new Set<string>();

describe('header and footer links in every language (issue 18 item 6)', () => {
  it.each(LANGUAGES)(
    '$lang: every link leads to a page that loads (no 404) in its language, and passes axe',
    async (language) => {
      const page = await session.newPage();
      await visit(page, `${language.prefix}/convertor`);
      // The chrome speaks the page's language.
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language.lang);
      await page.getByRole('contentinfo').getByRole('link', { name: language.home }).waitFor();
      const internal = new Set<string>();
      for (const href of await headerAndFooterLinks(page)) {
        const url = new URL(href);
        if (url.origin === session.baseUrl) internal.add(url.pathname);
        else if (url.protocol === 'https:' || url.protocol === 'http:') external.add(href);
        else expect(['tel:+442079460321', 'mailto:hello@parla.co.uk']).toContain(href);
      }
      // Home, Pricing, Blog, Contact, Sitemap, Get Started, the editors, terms, privacy...
      expect(internal.size).toBeGreaterThanOrEqual(9);

      for (const path of internal) {
        if (visited.has(path)) continue;
        visited.add(path);
        const response = await page.goto(path);
        expect(response?.status(), path).toBeLessThan(400);
        await visit(page, path);
        // A link is never "any other path" quietly showing the convertor instead.
        expect(new URL(page.url()).pathname, path).toBe(path);
        const h1 = await page.getByRole('heading', { level: 1 }).first().textContent();
        expect(h1?.trim(), path).not.toBe('');
        expect(
          await page
            .getByRole('alert')
            .filter({ hasText: /wrong|loaded/ })
            .count(),
          path,
        ).toBe(0);
        if (path.startsWith(`${language.prefix}/`) && language.prefix) {
          expect(await page.evaluate(() => document.documentElement.lang), path).toBe(
            language.lang,
          );
        }
      }
      expectNoPageErrors(page);
    },
    120_000,
  );

  it('the social links go to the networks themselves, over https', () => {
    expect(external.size).toBe(4);
    for (const href of external) {
      expect(href).toMatch(/^https:\/\/(x|www\.linkedin|www\.youtube|github)\.com\//);
    }
  });
});
