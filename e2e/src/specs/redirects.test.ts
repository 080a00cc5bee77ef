import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, pathOf, useBrowser, visit } from '../harness/browser.js';

const session = useBrowser();
// The test server has no natural voice installed (DEFAULT_VOICES=none): no claim of one.
const CONVERTOR_HEADING = 'Turn your text into speech';

async function h1(page: Awaited<ReturnType<typeof session.newPage>>) {
  return page.getByRole('heading', { level: 1 }).textContent();
}

describe('redirects and unknown paths (SPEC §2 route table)', () => {
  it('the empty path goes to /convertor', async () => {
    const page = await session.newPage();
    await visit(page, '/');
    expect(pathOf(page)).toBe('/convertor');
    expect(await h1(page)).toBe(CONVERTOR_HEADING);
    expectNoPageErrors(page);
  });

  it('any other /convertor/... path goes to /convertor', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor/whatever');
    expect(pathOf(page)).toBe('/convertor');
  });

  it('/convertor/text and /convertor/ssml are pages of their own', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor/ssml');
    expect(pathOf(page)).toBe('/convertor/ssml');
    expect(await page.getByRole('tab', { name: 'SSML' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await page.getByRole('textbox', { name: 'SSML editor' }).waitFor();
  });

  it('an unknown path shows the convertor page and keeps its address', async () => {
    const page = await session.newPage();
    await visit(page, '/this/page/does-not-exist');
    expect(pathOf(page)).toBe('/this/page/does-not-exist');
    expect(await h1(page)).toBe(CONVERTOR_HEADING);
    expectNoPageErrors(page);
  });

  it('an unknown path is in the default language, even after a page read in another (issue 33 item 8)', async () => {
    const page = await session.newPage();
    await visit(page, '/fr/pricing');
    expect(await h1(page)).toBe('Offres et tarifs');
    await visit(page, '/nothing-here');
    expect(await h1(page)).toBe(CONVERTOR_HEADING);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expectNoPageErrors(page);
  });

  it('/fr/pricing keeps its language, and so do the header links', async () => {
    const page = await session.newPage();
    await visit(page, '/fr/pricing');
    expect(pathOf(page)).toBe('/fr/pricing');
    expect(await h1(page)).toBe('Offres et tarifs');
    const nav = page.getByRole('navigation', { name: 'Navigation principale' });
    expect(await nav.getByRole('link', { name: 'Blog' }).getAttribute('href')).toBe('/fr/blog');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
  });

  it('/{language} alone is the convertor in that language', async () => {
    const page = await session.newPage();
    await visit(page, '/de');
    expect(pathOf(page)).toBe('/de/convertor');
  });

  it('/sitemap and /sitemap.html show the same sitemap', async () => {
    const page = await session.newPage();
    await visit(page, '/sitemap.html');
    expect(await h1(page)).toBe('Sitemap');
    await visit(page, '/sitemap');
    expect(await h1(page)).toBe('Sitemap');
  });
});
