import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { WEB_INDEX } from '../harness/server.js';

const session = useBrowser();
const ASSETS = path.join(path.dirname(WEB_INDEX), 'assets');

/** The stylesheets an HTML document links in its head: they block its first paint. */
function renderBlockingStylesheets(html: string): string[] {
  const head = html.slice(0, html.search(/<\/head>/i));
  return [...head.matchAll(/<link\b[^>]*>/gi)]
    .map((match) => match[0])
    .filter((tag) => /\brel=["']?stylesheet\b/i.test(tag) && !/\bmedia=["']?print\b/i.test(tag))
    .map((tag) => /\bhref=["']?([^"'\s>]+)/i.exec(tag)?.[1] ?? '');
}

describe('the CSS that blocks the first paint (issue 33 item 9: under 100 kB raw)', () => {
  it.each(['/convertor', '/fr/convertor', '/ar/convertor', '/pricing'])(
    '%s as served links less than 100 kB of render-blocking CSS',
    async (url) => {
      const html = await (await fetch(`${session.baseUrl}${url}`)).text();
      const sheets = renderBlockingStylesheets(html);
      expect(sheets.length).toBeGreaterThan(0);
      let bytes = 0;
      for (const sheet of sheets) {
        const response = await fetch(`${session.baseUrl}${sheet}`, {
          headers: { 'accept-encoding': 'identity' },
        });
        expect(response.status, sheet).toBe(200);
        bytes += (await response.arrayBuffer()).byteLength;
      }
      expect(bytes, sheets.join(', ')).toBeLessThan(100 * 1024);
    },
  );

  it('leaves no Mantine component of the built scripts without its styles in a built stylesheet', () => {
    const files = readdirSync(ASSETS);
    const read = (ext: string) =>
      files
        .filter((file) => file.endsWith(ext))
        .map((file) => readFileSync(path.join(ASSETS, file), 'utf8'))
        .join('\n');
    // Mantine names its components' classes m_ and eight hex digits, the same in its scripts
    // and in its stylesheets (a component missing from apps/web/src/app/mantine-styles.ts
    // would show unstyled).
    const used = new Set(read('.js').match(/\bm_[0-9a-f]{6,8}\b/g));
    const defined = new Set(read('.css').match(/\bm_[0-9a-f]{6,8}\b/g));
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter((name) => !defined.has(name));
    expect(missing).toEqual([]);
    // And the render-blocking one is not the whole of Mantine any more.
    const entry = renderBlockingStylesheets(readFileSync(WEB_INDEX, 'utf8'));
    for (const sheet of entry) {
      expect(statSync(path.join(path.dirname(WEB_INDEX), sheet)).size).toBeLessThan(100 * 1024);
    }
  });
});

describe('components styled from their first frame, without the whole of Mantine up front', () => {
  it('shows the convertor and its voice picker styled, with no error (CSP included)', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor');
    // The styles came with the page: Mantine's button and card rules apply.
    const convert = page.getByRole('button', { name: 'Convert', exact: true });
    expect(await convert.evaluate((element) => getComputedStyle(element).cursor)).toBe('pointer');
    expect((await convert.boundingBox())?.height).toBe(42);
    await page.getByRole('button', { name: 'Change: Voice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a voice' });
    await dialog.waitFor();
    // A Mantine modal is a fixed layer over the page, not a block at the end of it.
    const position = await dialog.evaluate(
      (element) =>
        getComputedStyle(element.closest('[class*="mantine-Modal-inner"]') ?? element).position,
    );
    expect(position).toBe('fixed');
    expectNoPageErrors(page);
  });

  it('shows a page first visited after the convertor styled too', async () => {
    const page = await session.newPage();
    await visit(page, '/pricing');
    const heading = page.getByRole('heading', { level: 1 });
    // Mantine's Title rule takes the browser's margins off the h1.
    expect(await heading.evaluate((element) => getComputedStyle(element).marginTop)).toBe('0px');
    expectNoPageErrors(page);
  });
});
