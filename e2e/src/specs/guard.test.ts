import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoPageErrors, pathOf, useBrowser, visit } from '../harness/browser.js';
import { expiredCopyOf, newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();
const GUARDED = [
  { path: '/account', heading: 'My Account' },
  { path: '/account/plan', heading: 'My Plan' },
  { path: '/account/checkout', heading: 'Checkout' },
  { path: '/file-history', heading: 'File History' },
  { path: '/documents', heading: 'Documents' },
];

let token = '';
beforeAll(async () => {
  token = (await newUser()).token;
});

describe('access guard (SPEC §2)', () => {
  it.each(GUARDED)('$path without a token cookie goes to /auth/login', async ({ path }) => {
    const page = await session.newPage();
    await visit(page, path);
    expect(pathOf(page)).toBe('/auth/login');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Login');
    expectNoPageErrors(page);
  });

  it('an expired token cookie goes to /auth/login', async () => {
    const page = await session.newPage();
    await setTokenCookie(page, expiredCopyOf(token), session.baseUrl);
    await visit(page, '/account');
    expect(pathOf(page)).toBe('/auth/login');
  });

  it.each(GUARDED)('$path opens with a valid token cookie', async ({ path, heading }) => {
    const page = await session.newPage();
    await setTokenCookie(page, token, session.baseUrl);
    await visit(page, path);
    expect(pathOf(page)).toBe(path);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    expectNoPageErrors(page);
  });
});
