import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

describe('header states (SPEC §2 "Header")', () => {
  it('signed out: Login and Register buttons, no account menu', async () => {
    const page = await session.newPage();
    await visit(page, '/pricing');
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    await banner.getByRole('link', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/register');
    expectNoPageErrors(page);
  });

  it('signed in: the email menu with My Account, My Plan, File History, Documents and Logout', async () => {
    const user = await newUser('BASIC');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/convertor');
    const banner = page.getByRole('banner');
    const menuButton = banner.getByRole('button', { name: user.email });
    await menuButton.waitFor();
    expect(await banner.getByRole('link', { name: 'Login' }).count()).toBe(0);
    // Issue 33: Documents in the main navigation, and the whole email on hover.
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Documents' })
        .getAttribute('href'),
    ).toBe('/documents');
    expect(await menuButton.getAttribute('title')).toBe(user.email);

    await menuButton.click();
    const menu = page.getByRole('menu');
    await menu.waitFor();
    for (const item of ['My Account', 'My Plan', 'File History', 'Documents', 'Logout']) {
      expect(await menu.getByRole('menuitem', { name: item }).isVisible()).toBe(true);
    }
    await expectAccessible(page);

    // An outside click closes it.
    await page.getByRole('heading', { level: 1 }).click();
    await menu.waitFor({ state: 'hidden' });

    // My Plan goes to the guarded page.
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'My Plan' }).click();
    await page.waitForURL((url) => url.pathname === '/account/plan');

    // Logout deletes the cookie and goes to /auth/login.
    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'token')).toBeUndefined();
    await banner.getByRole('link', { name: 'Login' }).waitFor();

    // And the guard now refuses.
    await visit(page, '/account');
    expect(pathOf(page)).toBe('/auth/login');
    expectNoPageErrors(page);
  });

  it('a token the server refuses means signed out', async () => {
    const page = await session.newPage();
    // Well-formed and unexpired, but not signed by this server: the profile call fails.
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = `${encode({ alg: 'HS256' })}.${encode({ sub: 'x', exp: 4_102_444_800 })}.AAAA`;
    await setTokenCookie(page, forged, session.baseUrl);
    await visit(page, '/pricing');
    await page.getByRole('banner').getByRole('link', { name: 'Login' }).waitFor();
  });
});
