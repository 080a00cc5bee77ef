import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  pathOf,
  useBrowser,
  visit,
} from '../harness/browser.js';
import { field, fieldError } from '../harness/forms.js';
import { waitForMail } from '../harness/mail.js';

const session = useBrowser();
let counter = 0;
const uniqueEmail = () => `auth-${process.pid}-${Date.now()}-${++counter}@example.com`;

async function register(page: Page, email: string, password: string) {
  await visit(page, '/auth/register');
  const form = page.getByRole('form', { name: 'Register' });
  await field(form, 'Email address').fill(email);
  await field(form, 'Password').fill(password);
  await field(form, 'Confirm password').fill(password);
  await form.getByRole('button', { name: 'Register' }).click();
  await page.getByText('Register successfully!Go to login page!').waitFor();
}

describe('registration and email validation (SPEC §2, §4)', () => {
  it('registers, opens the link from the mail after the 3 s wait and arrives signed in', async () => {
    const page = await session.newPage();
    const email = uniqueEmail();
    await register(page, email, 'first-secret-1');
    await expectAccessible(page);

    // Login before validation: the page becomes the validation notice.
    await visit(page, '/auth/login');
    const login = page.getByRole('form', { name: 'Login' });
    await field(login, 'Email address').fill(email);
    await field(login, 'Password').fill('first-secret-1');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('heading', { name: 'Email address validation' }).waitFor();
    expect((await page.context().cookies()).some((c) => c.name === 'token')).toBe(false);

    const mail = await waitForMail(email, /confirm your email/i);
    const link = mail.links.find((href) => href.includes('/auth/validate-email-address/'));
    expect(link, mail.text).toBeDefined();
    expect(mail.html).toContain('Confirm my email address');

    const started = Date.now();
    await page.goto(new URL(link ?? '').pathname);
    await page.getByText('Please be patient ...').waitFor();
    await page.waitForURL((url) => url.pathname === '/convertor', { timeout: 20_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    await page.getByRole('banner').getByRole('button', { name: email }).waitFor();
    const token = (await page.context().cookies()).find((c) => c.name === 'token');
    expect(token?.value.split('.')).toHaveLength(3);
    expect(token?.expires).toBeGreaterThan(Date.now() / 1000);

    // The link works once: a second visit fails with SPEC's notice.
    const again = await session.newPage();
    await again.goto(new URL(link ?? '').pathname);
    await again
      .getByText(
        'Could not validate your email address. Maybe the link has expired. Please try again to login. If the error persists then contact us.',
      )
      .waitFor({ timeout: 20_000 });
    await expectAccessible(again);
    expectNoPageErrors(page);
  });

  it('registering a taken address answers as for a new one and mails its owner', async () => {
    const page = await session.newPage();
    const email = uniqueEmail();
    await register(page, email, 'first-secret-1');
    const validation = await waitForMail(email, /confirm your email/i);
    const validate = validation.links.find((href) => href.includes('validate-email-address'));
    await page.goto(new URL(validate ?? '').pathname);
    await page.waitForURL((url) => url.pathname === '/convertor', { timeout: 20_000 });

    // Someone else tries the same address: the page says nothing the owner would not say.
    const other = await session.newPage();
    await register(other, email, 'other-secret-2');
    const notice = await waitForMail(email, /tried to create a Parla account/i);
    expect(notice.links.some((href) => href.endsWith('/auth/forgotten-password'))).toBe(true);
    expectNoPageErrors(other);
  });

  it('shows every validation message of the login and register forms', async () => {
    const page = await session.newPage();
    await visit(page, '/auth/register');
    const form = page.getByRole('form', { name: 'Register' });
    await form.getByRole('button', { name: 'Register' }).click();
    expect(await fieldError(page, 'Email address')).toBe('Email address is required.');
    expect(await fieldError(page, 'Password')).toBe('Password is required.');
    expect(await fieldError(page, 'Confirm password')).toBe('Confirm password is required.');

    await field(form, 'Email address').fill('not-an-address');
    await field(form, 'Password').fill('abc');
    await field(form, 'Confirm password').fill('abcdefg');
    await form.getByRole('button', { name: 'Register' }).click();
    expect(await fieldError(page, 'Email address')).toBe('Incorect email address.');
    expect(await fieldError(page, 'Password')).toBe('Password must be at least 6 characters long.');
    expect(await fieldError(page, 'Confirm password')).toBe('Confirm password must match.');
    await expectAccessible(page);

    // The agreement box disables submit while unchecked; its links open in a new tab.
    await form.getByRole('checkbox', { name: /I agree/ }).uncheck();
    expect(await form.getByRole('button', { name: 'Register' }).isDisabled()).toBe(true);
    const terms = form.getByRole('link', { name: /Terms of Services/ });
    expect(await terms.getAttribute('target')).toBe('_blank');

    await visit(page, '/auth/login');
    const login = page.getByRole('form', { name: 'Login' });
    await login.getByRole('button', { name: 'Login' }).click();
    expect(await fieldError(page, 'Email address')).toBe('Email address is required.');
    expect(await fieldError(page, 'Password')).toBe('Password is required.');

    // A wrong password: the server's message in a red alert, no cookie.
    await field(login, 'Email address').fill(uniqueEmail());
    await field(login, 'Password').fill('wrong-secret');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('alert').waitFor();
    expect((await page.context().cookies()).some((c) => c.name === 'token')).toBe(false);
    expectNoPageErrors(page);
  });
});

describe('forgotten and reset password (SPEC §2, §4)', () => {
  it('mails a reset link that sets a new password once', async () => {
    const page = await session.newPage();
    const email = uniqueEmail();
    await register(page, email, 'old-secret-1');
    const validation = await waitForMail(email, /confirm your email/i);
    const validate = validation.links.find((href) => href.includes('validate-email-address'));
    await page.goto(new URL(validate ?? '').pathname);
    await page.waitForURL((url) => url.pathname === '/convertor', { timeout: 20_000 });

    const visitor = await session.newPage();
    await visit(visitor, '/auth/forgotten-password');
    const forgotten = visitor.getByRole('form', { name: 'Forgotten password' });
    await forgotten.getByRole('button', { name: /send/i }).click();
    expect(await fieldError(visitor, 'Email address')).toBe('Email address is required.');
    await field(forgotten, 'Email address').fill(email);
    await forgotten.getByRole('button', { name: /send/i }).click();
    await visitor.getByText('Email sent successfully!').waitFor();

    const mail = await waitForMail(email, /reset/i);
    const link = mail.links.find((href) => href.includes('/auth/reset-password/'));
    expect(link, mail.text).toBeDefined();
    await visit(visitor, new URL(link ?? '').pathname);
    const reset = visitor.getByRole('form', { name: /password/i });
    await field(reset, 'New password').fill('new-secret-2');
    await field(reset, 'Confirm password').fill('new-secret-3');
    await reset.getByRole('button', { name: 'Change password' }).click();
    expect(await fieldError(visitor, 'Confirm password')).toBe('Confirm password must match.');
    await field(reset, 'Confirm password').fill('new-secret-2');
    await reset.getByRole('button', { name: 'Change password' }).click();
    await visitor.getByText('Password changed successfully!Go to login page!').waitFor();

    // The key is single-use.
    await reset.getByRole('button', { name: 'Change password' }).click();
    await visitor.getByRole('alert').filter({ hasNotText: 'successfully' }).waitFor();

    // The new password signs in and goes to the convertor.
    await visit(visitor, '/auth/login');
    const login = visitor.getByRole('form', { name: 'Login' });
    await field(login, 'Email address').fill(email);
    await field(login, 'Password').fill('new-secret-2');
    await login.getByRole('button', { name: 'Login' }).click();
    await visitor.waitForURL((url) => url.pathname === '/convertor');
    expect(pathOf(visitor)).toBe('/convertor');
    expectNoPageErrors(visitor);
  });
});
