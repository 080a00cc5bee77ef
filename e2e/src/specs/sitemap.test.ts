import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  useBrowser,
  waitForApp,
} from '../harness/browser.js';

const session = useBrowser();
const SECTIONS = [
  'Parla for English speakers',
  'Parla for French speakers',
  'Parla for German speakers',
  'Parla for Spanish speakers',
  'Parla for Arabic speakers',
];

describe('sitemap (SPEC §2 "Sitemap")', () => {
  it('loads the default language first, then every language after 1 second', async () => {
    const page = await session.newPage();
    const requested: Array<{ url: string; at: number }> = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/content/'))
        requested.push({ url: request.url(), at: Date.now() });
    });
    // Hold the second stage until the first has been looked at.
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/api\/content\/pages\/fr(\?|$)/, (route) => {
      if (holding) held.push(route);
      else void route.continue();
    });

    await page.goto('/sitemap');
    await waitForApp(page);
    await page.getByRole('heading', { level: 2, name: 'Parla for English speakers' }).waitFor();
    const loading = page.getByRole('status').filter({ hasText: 'Loading every language…' });
    await loading.waitFor();
    expect(await page.getByRole('heading', { level: 2, name: /^Parla for / }).count()).toBe(1);
    const english = page.getByRole('region', { name: 'Parla for English speakers' });
    await english.getByRole('heading', { level: 3, name: 'Company' }).waitFor();
    expect(await english.getByRole('heading', { level: 3, name: 'Main' }).count()).toBe(0);
    await expectAccessible(page);

    await expect.poll(() => held.length, { timeout: 5000 }).toBeGreaterThan(0);
    holding = false;
    for (const route of held.splice(0)) await route.continue();
    await loading.waitFor({ state: 'detached' });
    const headings = await page
      .getByRole('heading', { level: 2, name: /^Parla for / })
      .allTextContents();
    expect(headings).toEqual(SECTIONS);

    const first = requested.find((request) => request.url.includes('/api/content/pages/default?'));
    const second = requested.find((request) => request.url.includes('/api/content/pages/fr'));
    expect(first && second).toBeTruthy();
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);

    // Categories ('Main' shown as 'Company') and a Blog entry listing the articles.
    const arabic = page.getByRole('region', { name: 'Parla for Arabic speakers' });
    await arabic.getByRole('heading', { level: 3, name: 'Company' }).waitFor();
    expect(await arabic.getByRole('link', { name: 'سياسة الخصوصية' }).getAttribute('href')).toBe(
      '/ar/privacy-policy',
    );
    expect(
      await arabic.getByRole('link', { name: 'ما هي لغة SSML؟ مقدمة عملية' }).getAttribute('href'),
    ).toBe('/ar/blog/article/ma-hiya-ssml');
    const blog = english.getByRole('heading', { level: 3, name: 'Blog' }).locator('..');
    expect(
      await blog
        .getByRole('link', { name: 'What is SSML? A practical introduction' })
        .getAttribute('href'),
    ).toBe('/blog/article/what-is-ssml');
    expect(await english.getByRole('link', { name: 'Text Editor' }).getAttribute('href')).toBe(
      '/convertor/text',
    );
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('is the same page at /sitemap.html', async () => {
    const page = await session.newPage();
    await page.goto('/sitemap.html');
    await waitForApp(page);
    await page.getByRole('heading', { level: 1, name: 'Sitemap' }).waitFor();
    await page
      .getByRole('heading', { level: 2, name: 'Parla for Arabic speakers' })
      .waitFor({ timeout: 10_000 });
    expect(
      await page.getByRole('heading', { level: 2, name: /^Parla for / }).allTextContents(),
    ).toEqual(SECTIONS);
    await expectAccessible(page);
    expectNoPageErrors(page);
  });
});
