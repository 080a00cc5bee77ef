import type { Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser, visit } from '../harness/browser.js';

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
