import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
  waitForApp,
} from '../harness/browser.js';

const session = useBrowser();

describe('language switcher (SPEC §2 "Global")', () => {
  it('shows the current language and links to the same page in the others', async () => {
    const page = await session.newPage();
    await visit(page, '/pricing');
    const switcher = page.getByRole('button', { name: 'Language: English' });
    await switcher.click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    const french = menu.getByRole('menuitem', { name: 'Français' });
    expect(await french.getAttribute('href')).toBe('/fr/pricing');
    expect(await menu.getByRole('menuitem', { name: 'English' }).count()).toBe(0);
    await expectAccessible(page);

    await french.click();
    await page.waitForURL((url) => url.pathname === '/fr/pricing');
    // The URL changes before React commits the new page (router updates run in a transition).
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('button', { name: 'Language: Français' }).waitFor();
    expectNoPageErrors(page);
  });

  it('is fixed at the bottom left', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor');
    const box = await page.getByRole('button', { name: 'Language: English' }).boundingBox();
    expect(box).not.toBeNull();
    expect(box?.x).toBeLessThan(40);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeGreaterThan(800 - 40);
  });

  it('Arabic lays the page out right to left', async () => {
    const page = await session.newPage();
    await visit(page, '/contact');
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.waitForURL((url) => url.pathname === '/ar/contact');
    await waitForApp(page);
    // The layout sets the direction in an effect right after the new route renders.
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expectAccessible(page);
    // And back to English, left to right.
    await page.getByRole('button', { name: 'Language: العربية' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.waitForURL((url) => url.pathname === '/contact');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    expectNoPageErrors(page);
  });

  it('an unknown path switches to the convertor in the other language', async () => {
    const page = await session.newPage();
    await visit(page, '/nothing-here');
    await page.getByRole('button', { name: 'Language: English' }).click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await page.waitForURL((url) => url.pathname === '/de/convertor');
    expect(pathOf(page)).toBe('/de/convertor');
  });

  it('is not on pages that exist in one language only', async () => {
    const page = await session.newPage();
    await visit(page, '/auth/login');
    expect(await page.getByRole('button', { name: /^Language:/ }).count()).toBe(0);
  });
});
