import { MESSAGES, type Profile, type ProfileUser } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AccountPage from '../../../app/routes/account/account';
import { getCookie } from '../../../lib/cookies';
import { signJwt } from '../../../test/jwt';
import { BILLED, profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, type RecordedCall, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

const TAX_IDS = [
  { type: 'eu_vat', country: 'FR', pattern: 'FR[A-HJ-NP-Z0-9]{2}\\d{9}', example: 'FRAB123456789' },
  { type: 'eu_vat', country: 'DE', pattern: 'DE\\d{9}', example: 'DE123456789' },
  { type: 'gb_vat', country: 'GB', pattern: 'GB\\d{9}', example: 'GB123456789' },
  { type: 'xx_none', country: 'GB', pattern: '.+', example: '' },
];

const withUser = (user: Partial<ProfileUser> = {}) => profileOf({ user });

const COMPANY = withUser({
  ...BILLED,
  address: { ...(BILLED.address as ProfileUser['address']), postal_code: 'N1 9GU' },
  tax: { type: 'gb_vat', code: 'GB123456789' },
});

const token = signedInForEachTest();

type Answer = (call: RecordedCall) => Response | undefined;

function serve(profile: Profile, answer: Answer = () => undefined) {
  return interceptFetch((call) => {
    const given = answer(call);
    if (given) return given;
    if (call.url === '/api/account/profile') return jsonResponse(200, profile);
    if (call.url === '/api/account/tax_ids') return jsonResponse(200, TAX_IDS);
    if (call.url === '/api/account/api_keys' && call.method === 'GET') return jsonResponse(200, []);
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
}

async function renderAccount() {
  const view = renderAt('/account', '/account', <AccountPage />);
  // About a second of skeletons after the profile has loaded (SPEC §2).
  expect(screen.getAllByTestId('field-skeletons').length).toBeGreaterThan(0);
  await screen.findByRole('button', { name: 'Save' }, { timeout: 3000 });
  return view;
}

const billing = () => within(screen.getByRole('form', { name: 'Billing Settings' }));

describe('My Account', { timeout: 20_000 }, () => {
  it("shows the profile with '-' for empty values, after the skeletons", async () => {
    serve(withUser());
    await renderAccount();
    expect(screen.queryByTestId('field-skeletons')).toBeNull();
    const overview = screen.getByRole('region', { name: 'Your account' });
    expect(within(overview).getByText('me@example.com')).toBeTruthy();
    expect(within(overview).getAllByText('-')).toHaveLength(4);
    expect(document.getElementById('billingSettings')).not.toBeNull();
  });

  it('checks the company box when the profile has both tax type and code, and shows them', async () => {
    serve(COMPANY);
    await renderAccount();
    const box = billing().getByRole('checkbox', { name: 'Save company tax details' });
    expect((box as HTMLInputElement).checked).toBe(true);
    expect((billing().getByLabelText(/^Tax code/) as HTMLInputElement).value).toBe('GB123456789');
    expect((billing().getByLabelText(/^Tax Type/) as HTMLInputElement).value).toBe('GB VAT');
  });

  it('leaves the box unchecked with only one tax part, and hides the tax fields then', async () => {
    serve(withUser({ tax: { type: 'gb_vat', code: null } }));
    await renderAccount();
    const box = billing().getByRole('checkbox', { name: 'Save company tax details' });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(billing().queryByLabelText(/^Tax code/)).toBeNull();
  });

  it('offers the tax types of the selected country, with the example as placeholder', async () => {
    const user = userEvent.setup();
    serve(COMPANY);
    await renderAccount();
    const type = billing().getByLabelText(/^Tax Type/);
    await user.click(type);
    const listbox = await waitFor(() => {
      const element = document.getElementById(type.getAttribute('aria-controls') ?? '');
      if (!element) throw new Error('no listbox yet');
      return element;
    });
    const options = within(listbox).getAllByRole('option', { hidden: true });
    expect(options.map((option) => option.textContent)).toEqual(['GB VAT', 'XX NONE']);
    await user.click(screen.getByRole('option', { name: 'XX NONE', hidden: true }));
    // No example for this type: 'VAT code'.
    expect(
      billing()
        .getByLabelText(/^Tax code/)
        .getAttribute('placeholder'),
    ).toBe('VAT code');
    await user.click(type);
    await user.click(await screen.findByRole('option', { name: 'GB VAT', hidden: true }));
    expect(
      billing()
        .getByLabelText(/^Tax code/)
        .getAttribute('placeholder'),
    ).toBe('GB123456789');
  });

  it('requires name, phone, country, city, line 1 and, for a company, the tax details', async () => {
    const user = userEvent.setup();
    const { calls } = serve(withUser());
    await renderAccount();
    await user.click(billing().getByRole('checkbox', { name: 'Save company tax details' }));
    await user.click(billing().getByRole('button', { name: 'Save' }));
    for (const message of [
      MESSAGES.billing.nameRequired,
      MESSAGES.billing.phoneRequired,
      MESSAGES.billing.countryRequired,
      MESSAGES.billing.cityRequired,
      MESSAGES.billing.line1Required,
      MESSAGES.billing.taxTypeRequired,
      MESSAGES.billing.taxCodeRequired,
    ]) {
      expect(await billing().findByText(message)).toBeTruthy();
    }
    await user.type(billing().getByLabelText(/^Name/), 'Al');
    expect(await billing().findByText(MESSAGES.billing.nameMin)).toBeTruthy();
    await user.type(billing().getByLabelText(/^Phone/), '12345');
    expect(await billing().findByText(MESSAGES.billing.phoneMin)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);
  });

  it('sends null for empty optional fields and for the tax of a non-company', async () => {
    const user = userEvent.setup();
    const { calls } = serve(withUser({ tax: { type: 'gb_vat', code: null } }), (call) =>
      call.url === '/api/account/invoice_info' ? jsonResponse(200, { message: 'ok' }) : undefined,
    );
    await renderAccount();
    await user.type(billing().getByLabelText(/^Name/), 'Ada Lovelace');
    await user.type(billing().getByLabelText(/^Phone/), '+44 20 7946 0000');
    await user.click(billing().getByLabelText(/^Country/));
    await user.type(billing().getByLabelText(/^Country/), 'United King');
    await user.click(await screen.findByRole('option', { name: 'United Kingdom', hidden: true }));
    await user.type(billing().getByLabelText(/^City/), 'London');
    await user.type(billing().getByLabelText(/^Address line 1/), '1 Analytical Row');
    await user.click(billing().getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.billing.saveSuccess)).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      address: {
        country: 'GB',
        state: null,
        city: 'London',
        line1: '1 Analytical Row',
        line2: null,
        postal_code: null,
      },
      tax: { type: null, code: null },
    });
  });

  it('adds the tax-code hint to the failure only when tax details were sent', async () => {
    const user = userEvent.setup();
    serve(COMPANY, (call) =>
      call.url === '/api/account/invoice_info'
        ? jsonResponse(400, { message: 'This is not a valid GB VAT code.' })
        : undefined,
    );
    await renderAccount();
    await user.click(billing().getByRole('button', { name: 'Save' }));
    const alert = await billing().findByRole('alert');
    expect(alert.textContent).toBe(
      'Failed save billing settings! You may have entered an incorrect tax code!This is not a valid GB VAT code.',
    );
    await user.click(billing().getByRole('checkbox', { name: 'Save company tax details' }));
    await user.click(billing().getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(billing().getByRole('alert').textContent).toBe(
        'Failed save billing settings! This is not a valid GB VAT code.',
      ),
    );
  });

  it('keeps the user signed in with the new token after a password change', async () => {
    const user = userEvent.setup();
    const fresh = signJwt({ sub: 'u', exp: Math.floor(Date.now() / 1000) + 7200, v: 2 });
    const { calls } = serve(withUser(), (call) =>
      call.url === '/api/account/change_password'
        ? jsonResponse(200, {
            token: fresh,
            expire_date: new Date(Date.now() + 7_200_000).toISOString(),
          })
        : undefined,
    );
    await renderAccount();
    const form = within(screen.getByRole('form', { name: 'Change Password' }));
    await user.type(form.getByLabelText(/^Current password/), 'old-secret');
    await user.type(form.getByLabelText(/^New password/), 'new-secret');
    await user.type(form.getByLabelText(/^Confirm new password/), 'new-secreT');
    expect(await form.findByText(MESSAGES.account.confirmNewPasswordMatch)).toBeTruthy();
    await user.clear(form.getByLabelText(/^Confirm new password/));
    await user.type(form.getByLabelText(/^Confirm new password/), 'new-secret');
    await user.click(form.getByRole('button', { name: 'Change' }));
    expect(await form.findByText(MESSAGES.account.changePasswordSuccess)).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      old_password: 'old-secret',
      new_password: 'new-secret',
    });
    expect(getCookie('token')).toBe(fresh);
    // The page stays: no skeletons, no trip to the login page.
    expect(screen.queryByTestId('field-skeletons')).toBeNull();
  });

  it("shows the server's message when the email change is refused", async () => {
    const user = userEvent.setup();
    serve(withUser(), (call) =>
      call.url === '/api/account/change_email'
        ? jsonResponse(409, { message: 'An account with this email address already exists.' })
        : undefined,
    );
    await renderAccount();
    const form = within(screen.getByRole('form', { name: 'Change Email' }));
    await user.click(form.getByRole('button', { name: 'Change' }));
    expect(await form.findByText(MESSAGES.auth.emailRequired)).toBeTruthy();
    await user.type(form.getByLabelText(/^New email address/), 'taken@example.com');
    await user.click(form.getByRole('button', { name: 'Change' }));
    expect((await form.findByRole('alert')).textContent).toBe(
      'An account with this email address already exists.',
    );
  });

  it("asks for 'DELETE', then signs out and goes to /auth/login", async () => {
    const user = userEvent.setup();
    serve(withUser(), (call) =>
      call.url === '/api/account/delete' ? jsonResponse(200, { message: 'deleted' }) : undefined,
    );
    const { router } = await renderAccount();
    const form = within(screen.getByRole('form', { name: 'Delete account' }));
    await user.click(form.getByRole('button', { name: 'Delete' }));
    expect(await form.findByText(MESSAGES.account.deleteConfirmRequired)).toBeTruthy();
    await user.type(form.getByLabelText(/^Type DELETE/), 'delete');
    expect(await form.findByText(MESSAGES.account.deleteConfirmMatch)).toBeTruthy();
    await user.clear(form.getByLabelText(/^Type DELETE/));
    await user.type(form.getByLabelText(/^Type DELETE/), 'DELETE');
    await user.click(form.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(getCookie('token')).toBeUndefined();
  });

  it("says 'Faield to delete account!' when the deletion fails", async () => {
    const user = userEvent.setup();
    serve(withUser(), (call) =>
      call.url === '/api/account/delete' ? jsonResponse(500, {}) : undefined,
    );
    await renderAccount();
    const form = within(screen.getByRole('form', { name: 'Delete account' }));
    await user.type(form.getByLabelText(/^Type DELETE/), 'DELETE');
    await user.click(form.getByRole('button', { name: 'Delete' }));
    expect((await form.findByRole('alert')).textContent).toBe(MESSAGES.account.deleteFailed);
    expect(getCookie('token')).toBe(token());
  });

  it('creates an API key shown once, lists it by its prefix, and revokes it', async () => {
    const user = userEvent.setup();
    const key = 'parla_AbCdEf0123456789abcdef0123456789ABCDEFGHIJk';
    let keys: object[] = [];
    const { calls } = serve(withUser(), (call) => {
      if (call.url !== '/api/account/api_keys' && !call.url.startsWith('/api/account/api_keys/')) {
        return undefined;
      }
      if (call.method === 'GET') return jsonResponse(200, keys);
      if (call.method === 'POST') {
        keys = [
          {
            id: 'k1',
            name: 'Home Assistant',
            prefix: key.slice(0, 12),
            created_date: '2026-11-24T10:00:00.000Z',
            last_used_date: null,
          },
        ];
        return jsonResponse(201, {
          id: 'k1',
          name: 'Home Assistant',
          key,
          prefix: key.slice(0, 12),
          created_date: '2026-11-24T10:00:00.000Z',
        });
      }
      keys = [];
      return jsonResponse(200, { message: 'revoked' });
    });
    await renderAccount();
    const block = within(screen.getByRole('region', { name: 'API keys' }));
    expect(await block.findByText('You have no API keys yet.')).toBeTruthy();
    await user.type(block.getByLabelText('Key name'), 'Home Assistant');
    await user.click(block.getByRole('button', { name: 'Create key' }));
    expect((await block.findByTestId('new-api-key')).textContent).toBe(key);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Home Assistant' });
    expect(await block.findByText('parla_AbCdEf…')).toBeTruthy();
    expect(block.getByText('Never')).toBeTruthy();
    const confirm = window.confirm;
    window.confirm = () => true;
    try {
      await user.click(block.getByRole('button', { name: 'Revoke Home Assistant' }));
    } finally {
      window.confirm = confirm;
    }
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/account/api_keys/k1')).toBe(
        true,
      ),
    );
    expect(await block.findByText('You have no API keys yet.')).toBeTruthy();
  });
});
