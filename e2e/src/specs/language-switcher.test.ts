import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
  waitForApp,
} from '../harness/browser.js';
import { field } from '../harness/forms.js';
import { newUser } from '../harness/users.js';

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
    // The page now speaks French, the switcher too.
    await page.getByRole('button', { name: 'Langue : Français' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Offres et tarifs' }).waitFor();
    expectNoPageErrors(page);
  });

  it('keeps the language read last on the pages without one: sign-in and register', async () => {
    const page = await session.newPage();
    await visit(page, '/fr/pricing');
    await page.getByRole('heading', { level: 1, name: 'Offres et tarifs' }).waitFor();
    // The header's Login (a page with no language in its address) now speaks French.
    await page.getByRole('banner').getByRole('link', { name: 'Connexion' }).first().click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await page.getByRole('heading', { level: 1, name: 'Connexion' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByLabel('Adresse e-mail').waitFor();
    // SPEC's own words stay as written.
    await page.getByText('Remember me!').waitFor();
    await expectAccessible(page);
    // Signed in from there, the convertor comes in French too.
    const user = await newUser();
    const form = page.getByRole('form', { name: 'Connexion' });
    await field(form, 'Adresse e-mail').fill(user.email);
    await field(form, 'Mot de passe').fill('correct-horse-1');
    await form.getByRole('button', { name: 'Connexion' }).click();
    await page.waitForURL((url) => url.pathname === '/fr/convertor');

    // Arabic, read right to left, on a page reached by its address.
    await visit(page, '/ar/contact');
    await visit(page, '/auth/register');
    await page.getByRole('heading', { level: 1, name: 'أنشئ حسابك' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await expectAccessible(page);
    // English again once an English page is read.
    await visit(page, '/pricing');
    await visit(page, '/auth/login');
    await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
    expectNoPageErrors(page);
  });

  it('sits in the header, where it covers nothing (issue 18 item 3)', async () => {
    const page = await session.newPage();
    await visit(page, '/convertor');
    const switcher = page.getByRole('banner').getByRole('button', { name: 'Language: English' });
    const box = await switcher.boundingBox();
    expect(box).not.toBeNull();
    expect(box?.y ?? 1000).toBeLessThan(64);
    // It scrolls with nothing: the page's own controls are never under it.
    await page.mouse.wheel(0, 400);
    const convert = page.getByRole('button', { name: 'Convert', exact: true });
    const convertBox = await convert.boundingBox();
    const after = await switcher.boundingBox();
    expect(convertBox && after && convertBox.y >= after.y + after.height).toBe(true);
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
    await page.getByRole('button', { name: 'اللغة: العربية' }).click();
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
