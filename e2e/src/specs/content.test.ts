import { describe, expect, inject, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';

const session = useBrowser();

describe('content pages (SPEC §2, §4 "Content pages")', () => {
  it('shows the privacy policy and the terms from the content service, in a readable measure', async () => {
    const page = await session.newPage();
    await visit(page, '/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Who we are' }).waitFor();
    await page.getByRole('table').waitFor();
    // 60–75 characters per line (DESIGN.md): the prose is at most 75 "0" glyphs wide.
    const measure = await page
      .locator('main p')
      .nth(2)
      .evaluate((paragraph) => {
        const probe = document.createElement('span');
        probe.textContent = '0'.repeat(75);
        probe.style.whiteSpace = 'nowrap';
        paragraph.append(probe);
        const limit = probe.getBoundingClientRect().width;
        probe.remove();
        return { width: paragraph.getBoundingClientRect().width, limit };
      });
    expect(measure.width).toBeLessThanOrEqual(measure.limit);
    expect(await page.title()).toBe('Privacy Policy | Parla');
    await expectAccessible(page);

    await visit(page, '/de/terms-of-services');
    await page.getByRole('heading', { level: 1, name: 'Nutzungsbedingungen' }).waitFor();
    await page.getByRole('heading', { level: 2, name: '1. Der Dienst' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('lays Arabic pages out right to left', async () => {
    const page = await session.newPage();
    await visit(page, '/ar/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'سياسة الخصوصية' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const heading = page.getByRole('heading', { level: 2, name: 'من نحن' });
    const align = await heading.evaluate((element) => getComputedStyle(element).direction);
    expect(align).toBe('rtl');
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('goes to the default route when the content does not load', async () => {
    const page = await session.newPage();
    // 'it' is a country code (a route language) without any content.
    await page.goto('/it/terms-of-services');
    await page.waitForURL((url) => url.pathname === '/terms-of-services');
    await page.getByRole('heading', { level: 1, name: 'Terms of Services' }).waitFor();
    expect(pathOf(page)).toBe('/terms-of-services');
    await expectAccessible(page);
  });

  it('serves the meta tags in the HTML itself, for crawlers that run no JavaScript', async () => {
    const baseUrl = inject('baseUrl');
    const response = await fetch(`${baseUrl}/es/blog/article/que-es-ssml`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain('<title>¿Qué es SSML? Una introducción práctica | Parla</title>');
    expect(html).toMatch(/<meta name="description" content="SSML es el marcado/);
    expect(html).toContain('<meta property="og:type" content="article"');
    expect(html).toContain(
      `<meta property="og:image" content="${baseUrl}/api/content/images/what-is-ssml.svg"`,
    );
    expect(html).toContain(
      '<meta name="twitter:title" content="¿Qué es SSML? Una introducción práctica | Parla"',
    );
    expect(html).toContain('<meta itemprop="name"');
    expect(html).toContain(`hreflang="fr" href="${baseUrl}/fr/blog/article/qu-est-ce-que-ssml"`);

    const arabic = await (await fetch(`${baseUrl}/ar/contact`)).text();
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain('<title>اتصل بنا | Parla</title>');

    const sitemap = await fetch(`${baseUrl}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toContain('xml');
    expect(await sitemap.text()).toContain(`<loc>${baseUrl}/de/blog/article/was-ist-ssml</loc>`);
  });

  it('updates the metadata from /api/seo/meta when moving between pages', async () => {
    const page = await session.newPage();
    await visit(page, '/fr/blog');
    await page
      .getByRole('link', { name: /Des pauses qui sonnent juste/ })
      .first()
      .click();
    await page.waitForURL(
      (url) => url.pathname === '/fr/blog/article/des-pauses-naturelles-avec-break',
    );
    await page.waitForFunction(
      () =>
        document.querySelector('meta[property="og:type"]')?.getAttribute('content') === 'article' &&
        document.title === 'Des pauses qui sonnent juste : la balise SSML break | Parla',
    );
    expect(await page.locator('meta[property="og:title"]').count()).toBe(1);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(
      /^Le silence fait partie de la parole/,
    );
    await expectAccessible(page);
  });
});
