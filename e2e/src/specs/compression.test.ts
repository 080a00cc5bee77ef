import { existsSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { revealBelowFold, useBrowser, visit, waitForApp } from '../harness/browser.js';
import { WEB_INDEX } from '../harness/server.js';

const session = useBrowser();

describe('assets as the browser gets them (issue 18, item 5)', () => {
  it('sends the bundles of the convertor brotli-compressed, cached for a year', async () => {
    const page = await session.newPage();
    const assets: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
    });
    await visit(page, '/convertor');
    const scripts = assets.filter((r) => r.url().endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const response of scripts) {
      const headers = await response.allHeaders();
      expect(headers['cache-control'], response.url()).toBe('public, max-age=31536000, immutable');
      expect(headers.vary, response.url()).toMatch(/accept-encoding/i);
      // Chromium asks for br; every bundle of a kilobyte or more has its brotli copy.
      const size = (await response.body()).length;
      if (size >= 1024) expect(headers['content-encoding'], response.url()).toBe('br');
    }
  });
});

/** A built script's gzip size (the budget's unit): its .gz copy, or itself when too small. */
function gzipSize(pathname: string): number {
  const file = path.join(path.dirname(WEB_INDEX), pathname);
  return existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : statSync(file).size;
}

describe("a first visit's JavaScript (issue 18, item 5: at most 200 kB gzip)", () => {
  it.each([
    ['/convertor', 'en'],
    ['/fr/convertor', 'fr'],
    ['/ar/convertor', 'ar'],
  ])(
    '%s loads at most 200 kB gzip of it, with the words of its language only',
    async (url, locale) => {
      const page = await session.newPage();
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(url);
      await waitForApp(page);
      await page.getByRole('heading', { name: /./ }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const bytes = scripts.reduce((sum, script) => sum + gzipSize(script), 0);
      expect(bytes, scripts.join(', ')).toBeLessThanOrEqual(200 * 1024);
      const words = scripts.filter((script) =>
        /\/assets\/(en|fr|de|es|ar)-[\w-]+\.js$/.test(script),
      );
      expect(words.map((script) => path.basename(script).slice(0, 2))).toEqual([locale]);
    },
  );
});

/** A file as a client that takes gzip only gets it: its bytes on the wire and their encoding. */
function fetchGzipOnly(url: string): Promise<{ bytes: number; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    // node:http hands the body over as sent (fetch would decompress it).
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe("a first visit's JavaScript for a client that takes gzip only (issue 33 item 9)", () => {
  it.each(['/convertor', '/fr/convertor', '/ar/convertor'])(
    '%s sends at most 200 kB of it, gzip-compressed',
    async (url) => {
      const page = await session.newPage();
      const scripts = new Set<string>();
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.add(request.url());
      });
      await page.goto(url);
      await waitForApp(page);
      await page.waitForLoadState('networkidle');
      let total = 0;
      for (const script of scripts) {
        const { bytes, encoding } = await fetchGzipOnly(script);
        // The build keeps no compressed copy of a file under a kilobyte: it goes as it is.
        if (bytes >= 1024) expect(encoding, script).toBe('gzip');
        expect(encoding, script).not.toBe('br');
        total += bytes;
      }
      expect(scripts.size).toBeGreaterThan(0);
      expect(total, [...scripts].join(', ')).toBeLessThanOrEqual(200 * 1024);
    },
  );
});

describe('the convertor below its first screen (issue 18, item 5: loaded on demand)', () => {
  it('loads how it works, the FAQ and the blog teasers when a visitor scrolls near them', async () => {
    const page = await session.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/convertor');
    await waitForApp(page);
    await page.getByRole('heading', { name: 'Voice settings' }).waitFor();
    await page.waitForLoadState('networkidle');
    const faq = page.getByRole('heading', { name: 'Frequently asked questions' });
    expect(await faq.count()).toBe(0);
    const before = scripts.length;

    await revealBelowFold(page);
    await faq.scrollIntoViewIfNeeded();
    expect(await faq.isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'How it works' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'From the blog' }).count()).toBe(1);
    // Their code came only then.
    expect(scripts.length).toBeGreaterThan(before);
  });

  it('shows the FAQ at once to a link that names it', async () => {
    const page = await session.newPage();
    await page.goto('/convertor#faq');
    await waitForApp(page);
    const faq = page.getByRole('heading', { name: 'Frequently asked questions' });
    await faq.waitFor();
    expect(await faq.count()).toBe(1);
  });
});
