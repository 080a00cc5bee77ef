import { describe, expect, it } from 'vitest';
import { expectNoPageErrors, pathOf, useBrowser, visit } from '../harness/browser.js';
import { field, fieldError } from '../harness/forms.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

async function signedIn(path = '/account') {
  const user = await newUser();
  const page = await session.newPage();
  await setTokenCookie(page, user.token, session.baseUrl);
  await visit(page, path);
  // About 1 s of skeletons, then the real inputs (SPEC §2 "Account").
  await field(page, 'New email address').waitFor();
  return { page, user };
}

describe('My Account (SPEC §2 "Account")', () => {
  it('shows the validation messages of the password and delete blocks', async () => {
    const { page } = await signedIn();
    const password = page.getByRole('form', { name: 'Change Password' });
    await password.getByRole('button', { name: 'Change' }).click();
    expect(await fieldError(page, 'Current password')).toBe('Old password is required.');
    expect(await fieldError(page, 'New password')).toBe('New password is required.');
    expect(await fieldError(page, 'Confirm new password')).toBe(
      'Confirm new password is required.',
    );
    await field(password, 'New password').fill('abcdefgh');
    await field(password, 'Confirm new password').fill('abcdefgX');
    await password.getByRole('button', { name: 'Change' }).click();
    expect(await fieldError(page, 'Confirm new password')).toBe('Confirm new password must match.');

    const remove = page.getByRole('form', { name: 'Delete account' });
    await remove.getByRole('button', { name: 'Delete' }).click();
    expect(await fieldError(page, 'Type DELETE to confirm')).toBe("'DELETE' confirm is required.");
    await field(remove, 'Type DELETE to confirm').fill('delete');
    await remove.getByRole('button', { name: 'Delete' }).click();
    expect(await fieldError(page, 'Type DELETE to confirm')).toBe(
      "Value must match with 'DELETE'.",
    );
    expectNoPageErrors(page);
  });

  it('changes the password and refuses a wrong current one with the server message', async () => {
    const { page } = await signedIn();
    const password = page.getByRole('form', { name: 'Change Password' });
    await field(password, 'Current password').fill('not-my-password');
    await field(password, 'New password').fill('brand-new-pass');
    await field(password, 'Confirm new password').fill('brand-new-pass');
    await password.getByRole('button', { name: 'Change' }).click();
    const failure = password.getByRole('alert');
    await failure.waitFor();
    expect(await failure.textContent()).not.toBe('');

    await field(password, 'Current password').fill('correct-horse-1');
    await password.getByRole('button', { name: 'Change' }).click();
    await password.getByText('Password changed successfully!').waitFor();
  });

  it('saves billing settings, and adds the tax hint when the server refuses a tax code', async () => {
    const { page } = await signedIn('/account#billingSettings');
    const billing = page.getByRole('form', { name: 'Billing Settings' });
    await billing.getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(page, 'Name')).toBe('Name is required.');
    expect(await fieldError(page, 'Phone')).toBe('Phone number is required.');
    expect(await fieldError(page, 'City')).toBe('City is required.');
    expect(await fieldError(page, 'Address line 1')).toBe('Address line 1 is required.');

    await field(billing, 'Name').fill('Ada Lovelace Ltd');
    await field(billing, 'Phone').fill('+44 20 7946 0000');
    await field(billing, 'Country').fill('United Kingdom');
    await page.getByRole('option', { name: 'United Kingdom' }).click();
    await field(billing, 'City').fill('London');
    await field(billing, 'Address line 1').fill('1 Analytical Row');
    await billing.getByRole('checkbox', { name: 'Save company tax details' }).check();
    await billing.getByRole('button', { name: 'Save' }).click();
    expect(await fieldError(page, 'Tax Type')).toBe('Tax Type is required.');
    expect(await fieldError(page, 'Tax code')).toBe('Tax code is required.');

    await field(billing, 'Tax Type').click();
    await page.getByRole('option', { name: 'GB VAT' }).click();
    await field(billing, 'Tax code').fill('12');
    await billing.getByRole('button', { name: 'Save' }).click();
    await billing
      .getByText('Failed save billing settings! You may have entered an incorrect tax code!')
      .waitFor();

    await field(billing, 'Tax code').fill('GB123456789');
    await billing.getByRole('button', { name: 'Save' }).click();
    await billing.getByText('Billing settings saved successfully!').waitFor();

    // Saved for real: a fresh load shows the company box checked with the saved code.
    await page.reload();
    await field(page, 'Tax code').waitFor();
    expect(await field(page, 'Tax code').inputValue()).toBe('GB123456789');
    expectNoPageErrors(page);
  });

  it('deletes the account, signs out and goes to /auth/login', async () => {
    const { page, user } = await signedIn();
    const remove = page.getByRole('form', { name: 'Delete account' });
    await field(remove, 'Type DELETE to confirm').fill('DELETE');
    await remove.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect((await page.context().cookies()).some((c) => c.name === 'token')).toBe(false);

    // The old token no longer opens the account.
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/account');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(pathOf(page)).toBe('/auth/login');
  });
});
