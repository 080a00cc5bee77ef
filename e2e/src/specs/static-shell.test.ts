import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, waitForApp } from '../harness/browser.js';

const session = useBrowser();

/**
 * Issue 33 item 9 (docs/decisions/049-static-shell.md): the served HTML draws the header bar,
 * the convertor's headline and its editor box before any script runs, in the page's language
 * and direction, where the app then draws the same parts.
 */
const PAGES = [
  { url: '/convertor', lang: 'en', dir: 'ltr', editor: 'Editor', about: 'About Parla' },
  { url: '/fr/convertor', lang: 'fr', dir: 'ltr', editor: 'Éditeur', about: 'À propos de Parla' },
  { url: '/ar/convertor', lang: 'ar', dir: 'rtl', editor: 'المحرر', about: 'عن Parla' },
] as const;

type Box = { x: number; y: number; width: number; height: number };

/** The header bar, the headline (with its text) and the editor box, where they are drawn. */
async function drawnParts(page: Page, editor: string) {
  const box = async (locator: ReturnType<Page['locator']>): Promise<Box> => {
    const found = await locator.boundingBox();
    if (!found) throw new Error(`not drawn: ${locator}`);
    return found;
  };
  const headline = page.getByRole('heading', { level: 1 });
  return {
    header: await box(page.getByRole('banner')),
    headline: await box(headline),
    headlineText: (await headline.textContent())?.trim(),
    editor: await box(page.getByRole('region', { name: editor, exact: true })),
  };
}

const rounded = (box: Box) =>
  Object.fromEntries(Object.entries(box).map(([key, value]) => [key, Math.round(value)]));

describe('the static shell (issue 33 item 9)', () => {
  it.each(PAGES)(
    '$url draws its header, headline and editor box without JavaScript, in its language',
    async ({ url, lang, dir, editor }) => {
      const page = await session.newPage({
        javaScriptEnabled: false,
        viewport: { width: 1440, height: 900 },
      });
      await page.goto(url);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.locator('html').getAttribute('dir')).toBe(dir);
      const shell = await drawnParts(page, editor);
      expect(rounded(shell.header)).toEqual({ x: 0, y: 0, width: 1440, height: 64 });
      expect(shell.headlineText).toBeTruthy();
      // Below the header, in the page's reading direction: from the start of the line.
      expect(shell.headline.y).toBeGreaterThanOrEqual(64);
      if (dir === 'rtl') expect(shell.headline.x + shell.headline.width).toBeGreaterThan(1300);
      else expect(shell.headline.x).toBeLessThan(100);
      expect(shell.editor.y).toBeGreaterThan(shell.headline.y + shell.headline.height);
      // The editor box's own size: the 250 px area, its toolbar and Convert inside it.
      expect(shell.editor.height).toBeGreaterThan(400);
      expect(shell.editor.width).toBeGreaterThan(800);
    },
  );

  it.each(
    PAGES.flatMap((page) => [
      { ...page, width: 1440, height: 900 },
      { ...page, width: 360, height: 740 },
    ]),
  )(
    '$url at $width px: the app draws them where the shell did (no shift)',
    async ({ url, editor, about: aboutName, width, height }) => {
      const viewport = { width, height };
      const bare = await session.newPage({ javaScriptEnabled: false, viewport });
      await bare.goto(url);
      const shell = await drawnParts(bare, editor);

      const page = await session.newPage({ viewport });
      await page.goto(url);
      await waitForApp(page);
      const app = await drawnParts(page, editor);
      expect(app.headlineText).toBe(shell.headlineText);
      expect(rounded(app.header)).toEqual(rounded(shell.header));
      expect(rounded(app.headline)).toEqual(rounded(shell.headline));
      const { height: appHeight, ...appPlace } = rounded(app.editor);
      const { height: shellHeight, ...shellPlace } = rounded(shell.editor);
      expect(appPlace).toEqual(shellPlace);
      // On a phone the counter beside Convert may take another line once the plans' numbers
      // replace its placeholders (the shell cannot know them); on a laptop nothing moves.
      if (width >= 1440) {
        expect(appHeight).toBe(shellHeight);
        // On a laptop the paragraph about Parla is in the first screen, the largest text of it:
        // the shell draws it too, where the app does.
        const about = (on: Page) => on.getByRole('region', { name: aboutName, exact: true });
        const drawn = await about(bare).boundingBox();
        expect(drawn).not.toBeNull();
        expect(rounded(drawn as Box)).toEqual(rounded((await about(page).boundingBox()) as Box));
      }
      expectNoPageErrors(page);
    },
  );

  it('leaves the parts it drew uncovered by the startup loader, and goes when the app draws', async () => {
    const page = await session.newPage({ viewport: { width: 1440, height: 900 } });
    // The app starts, and the loader stays up while it fetches the page's own part: that part
    // (any script the HTML does not name) is held until the shell was looked at, else on a
    // busy or a fast machine the app could draw before the first look.
    const html = await (await fetch(new URL('/convertor', session.baseUrl))).text();
    const named = new Set([...html.matchAll(/\/assets\/[^"']+\.js/g)].map((match) => match[0]));
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      if (!named.has(new URL(route.request().url()).pathname)) await held;
      await route.continue();
    });
    await page.goto('/convertor');
    // While the loader is up, what is at the headline's place is the headline, not the loader.
    await page.getByTestId('page-loader').first().waitFor();
    const headline = await page.getByRole('heading', { level: 1 }).first().boundingBox();
    if (!headline) throw new Error('no headline under the loader');
    const hit = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('h1') !== null,
      { x: headline.x + 5, y: headline.y + headline.height / 2 },
    );
    expect(hit).toBe(true);
    // What is not drawn yet (the voice settings' column) is under the loader.
    const covered = await page.evaluate(
      () => document.elementFromPoint(1150, 300)?.closest('[data-testid="page-loader"]') !== null,
    );
    expect(covered).toBe(true);
    release();
    await waitForApp(page);
    // The shell went: one header and one headline, the app's.
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('banner').count()).toBe(1);
  });
});
