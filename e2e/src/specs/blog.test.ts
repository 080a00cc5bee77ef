import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';

const session = useBrowser();

describe('blog (SPEC §2 "Blog")', () => {
  it('filters the list by tag, All by default, with the 3 most recent articles aside', async () => {
    const page = await session.newPage();
    await visit(page, '/blog');
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    const filters = page.getByRole('list', { name: 'Filter by tag' });
    await filters.getByRole('link', { name: 'Tips' }).waitFor();
    const all = filters.getByRole('link', { name: 'All' });
    expect(await all.getAttribute('aria-current')).toBe('page');
    const articles = page.locator('main article');
    expect(await articles.count()).toBeGreaterThanOrEqual(6);
    // Cover pictures are shipped with the content and have a text alternative.
    const cover = articles.first().getByRole('img');
    expect(await cover.getAttribute('src')).toMatch(/^\/api\/content\/images\/[\w-]+\.svg$/);
    expect(await cover.getAttribute('alt')).toBeTruthy();

    const recent = page.getByRole('complementary', { name: 'Recent articles' });
    const recentLinks = recent.getByRole('list').first().getByRole('link');
    expect(await recentLinks.count()).toBe(3);
    expect(await recentLinks.first().textContent()).toBe(
      await articles.first().getByRole('heading').textContent(),
    );
    await expectAccessible(page);

    await filters.getByRole('link', { name: 'Tips' }).click();
    await page.waitForURL((url) => url.search === '?tag=Tips');
    await page
      .getByRole('list', { name: 'Filter by tag' })
      .getByRole('link', { name: 'Tips' })
      .and(page.locator('[aria-current="page"]'))
      .waitFor();
    const filtered = page.locator('main article');
    const count = await filtered.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(6);
    for (let index = 0; index < count; index += 1) {
      const tags = filtered.nth(index).getByRole('list', { name: 'Tags' });
      expect(await tags.getByRole('link', { name: 'Tips', exact: true }).count()).toBe(1);
    }
    await expectAccessible(page);

    await page
      .getByRole('list', { name: 'Filter by tag' })
      .getByRole('link', { name: 'All' })
      .click();
    await page.waitForURL((url) => url.pathname === '/blog' && url.search === '');
    await page.waitForFunction(() => document.querySelectorAll('main article').length >= 6);
    expectNoPageErrors(page);
  });

  it('opens an article and switches it to its French translation', async () => {
    const page = await session.newPage();
    await visit(page, '/blog');
    await page
      .getByRole('link', { name: 'What is SSML? A practical introduction' })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/blog/article/what-is-ssml');
    const title = page.getByRole('heading', { level: 1 });
    await title.getByRole('link', { name: 'What is SSML? A practical introduction' }).waitFor();
    const main = page.getByRole('main');
    await main.getByText(/^Published September 7, 2026 by Parla Ltd$/).waitFor();
    expect(await main.locator('time').first().getAttribute('datetime')).toBe(
      '2026-09-07T09:00:00.000Z',
    );
    await main.getByText(/^\d{3} words$/).waitFor();
    await main.getByText(/^\d min read$/).waitFor();
    await main.getByRole('heading', { level: 2, name: 'A first document' }).waitFor();
    const author = main.getByRole('link', { name: 'Parla Ltd' });
    expect(await author.getAttribute('href')).toBe('/contact');
    // Footer links back to the site (SPEC §2).
    for (const [name, href] of [
      ['Log in and start converting', '/auth/login'],
      ['See the plans', '/pricing'],
      ['Ask us a question', '/contact'],
      ['More about SSML', '/blog?tag=SSML'],
    ]) {
      expect(await main.getByRole('link', { name, exact: true }).getAttribute('href')).toBe(href);
    }
    const switcher = page.getByRole('navigation', { name: 'Read this article in' });
    const current = switcher.locator('[aria-current="true"]');
    expect(await current.textContent()).toContain('English');
    await expectAccessible(page);

    await switcher.getByRole('link', { name: 'Français' }).click();
    await page.waitForURL((url) => url.pathname === '/fr/blog/article/qu-est-ce-que-ssml');
    await page
      .getByRole('heading', { level: 1, name: "Qu'est-ce que le SSML ? Une introduction pratique" })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    const french = page.getByRole('navigation', { name: 'Lire cet article en' });
    expect(await french.locator('[aria-current="true"]').textContent()).toContain('Français');
    expect(await french.getByRole('link', { name: 'English' }).getAttribute('href')).toBe(
      '/blog/article/what-is-ssml',
    );
    await page.waitForFunction(() => document.title.startsWith("Qu'est-ce que le SSML"));
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('shows Arabic articles right to left', async () => {
    const page = await session.newPage();
    await visit(page, '/ar/blog/article/waqafat-tabiiya-bi-break');
    await page
      .getByRole('heading', { level: 1, name: 'وقفات تبدو طبيعية: وسم break في SSML' })
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ar');
    // Code stays left to right inside the right-to-left text.
    const direction = await page
      .locator('main pre')
      .first()
      .evaluate((pre) => getComputedStyle(pre).direction);
    expect(direction).toBe('ltr');
    await expectAccessible(page);

    await visit(page, '/ar/blog');
    await page.getByRole('heading', { level: 1, name: 'المدونة' }).waitFor();
    expect(await page.locator('main article').count()).toBe(2);
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('the bottom-left switcher takes an article to its own translation', async () => {
    const page = await session.newPage();
    await visit(page, '/blog/article/ssml-breaks-and-pauses');
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitem', { name: 'Español' }).click();
    await page.waitForURL((url) => url.pathname === '/es/blog/article/pausas-naturales-con-break');
    await page
      .getByRole('heading', {
        level: 1,
        name: 'Pausas que suenan naturales: la etiqueta SSML break',
      })
      .waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('goes back to /blog when an article does not load', async () => {
    const page = await session.newPage();
    await page.goto('/fr/blog/article/no-such-article');
    await page.waitForURL((url) => url.pathname === '/blog');
    await page.getByRole('heading', { level: 1, name: 'Blog' }).waitFor();
    expect(pathOf(page)).toBe('/blog');
    await expectAccessible(page);
  });
});
