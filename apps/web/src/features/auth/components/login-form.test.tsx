import { encodeRemembered, MESSAGES } from '@parla/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import LoginPage from '../../../app/routes/auth/login';
import { deleteCookie, getCookie, setCookie } from '../../../lib/cookies';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';
import { tokenExpiringIn } from '../../../test/session';

afterEach(() => {
  cleanup();
  restoreFetch();
  for (const name of ['token', 'remembered_email', 'remembered_password']) deleteCookie(name);
});

function renderLogin() {
  return renderAt('/auth/login', '/auth/login', <LoginPage />);
}

const submit = () => screen.getByRole('button', { name: 'Login' });

describe('login form', () => {
  it('checks both boxes by default and disables submit while the agreement is unchecked', async () => {
    const user = userEvent.setup();
    renderLogin();
    const remember = screen.getByRole('checkbox', { name: 'Remember me!' });
    const agreement = screen.getByRole('checkbox', { name: /I agree to the Terms of Services/ });
    expect((remember as HTMLInputElement).checked).toBe(true);
    expect((agreement as HTMLInputElement).checked).toBe(true);
    expect((submit() as HTMLButtonElement).disabled).toBe(false);
    await user.click(agreement);
    expect((submit() as HTMLButtonElement).disabled).toBe(true);
    await user.click(agreement);
    expect((submit() as HTMLButtonElement).disabled).toBe(false);
  });

  it('opens the terms and privacy links in a new tab', () => {
    renderLogin();
    for (const name of [/Terms of Services/, /Privacy Policy/]) {
      const link = screen.getByRole('link', { name });
      expect(link.getAttribute('target')).toBe('_blank');
      expect(link.getAttribute('rel')).toContain('noopener');
    }
  });

  it('uses the autocomplete tokens password managers look for', () => {
    renderLogin();
    expect(screen.getByLabelText(/Email address/).getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText(/^Password/).getAttribute('autocomplete')).toBe(
      'current-password',
    );
  });

  it('shows no error before the user did anything, and the schema messages after a submit', async () => {
    const user = userEvent.setup();
    const { calls } = interceptFetch(() => jsonResponse(500, {}));
    renderLogin();
    expect(screen.queryByText(MESSAGES.auth.emailRequired)).toBeNull();
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.auth.emailRequired)).toBeTruthy();
    expect(screen.getByText(MESSAGES.auth.passwordRequired)).toBeTruthy();
    await user.type(screen.getByLabelText(/Email address/), 'nobody');
    expect(await screen.findByText(MESSAGES.auth.emailInvalid)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Password/), 'abc');
    expect(await screen.findByText(MESSAGES.auth.passwordMin)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows an error once a field is touched', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByLabelText(/Email address/));
    await user.tab();
    expect(await screen.findByText(MESSAGES.auth.emailRequired)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.auth.passwordRequired)).toBeNull();
  });

  it('replaces the page with the validation notice when the address is not validated', async () => {
    const user = userEvent.setup();
    interceptFetch(() =>
      jsonResponse(200, { has_email_address_validated: false, token: null, expire_date: null }),
    );
    renderLogin();
    await user.type(screen.getByLabelText(/Email address/), 'new@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret-1');
    await user.click(submit());
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Email address validation' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact');
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    expect(getCookie('token')).toBeUndefined();
  });

  it("shows the server's message, or 'Failed login!' when it gives none", async () => {
    const user = userEvent.setup();
    let answer = jsonResponse(401, { message: 'Incorrect email address or password.' });
    interceptFetch(() => answer);
    renderLogin();
    await user.type(screen.getByLabelText(/Email address/), 'a@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret-1');
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Incorrect email address or password.',
    );
    answer = new Response('<html>bad gateway</html>', { status: 502 });
    await user.click(submit());
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(MESSAGES.auth.loginFailed),
    );
  });

  it('keeps the token until expire_date, remembers the email (never the password) and goes to /convertor', async () => {
    const user = userEvent.setup();
    const token = tokenExpiringIn();
    const { calls } = interceptFetch((call) =>
      call.url === '/api/auth/login'
        ? jsonResponse(200, {
            has_email_address_validated: true,
            token,
            expire_date: new Date(Date.now() + 3_600_000).toISOString(),
          })
        : jsonResponse(401, { message: 'no' }),
    );
    const { router } = renderLogin();
    await user.type(screen.getByLabelText(/Email address/), 'me@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'secret-1');
    await user.click(submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/convertor'));
    expect(calls[0]?.body).toEqual({ email: 'me@example.com', password: 'secret-1' });
    expect(getCookie('token')).toBe(token);
    expect(getCookie('remembered_email')).toBe(encodeRemembered('me@example.com'));
    expect(document.cookie).not.toContain('remembered_password');
    expect(document.cookie).not.toContain('secret-1');
  });

  it('prefills the remembered email and forgets it when Remember me! is unchecked', async () => {
    const user = userEvent.setup();
    setCookie('remembered_email', encodeRemembered('back@example.com'), new Date(2050, 0, 1));
    interceptFetch(() =>
      jsonResponse(200, {
        has_email_address_validated: true,
        token: tokenExpiringIn(),
        expire_date: new Date(Date.now() + 3_600_000).toISOString(),
      }),
    );
    const { router } = renderLogin();
    expect((screen.getByLabelText(/Email address/) as HTMLInputElement).value).toBe(
      'back@example.com',
    );
    await user.click(screen.getByRole('checkbox', { name: 'Remember me!' }));
    await user.type(screen.getByLabelText(/^Password/), 'secret-1');
    await user.click(submit());
    await waitFor(() => expect(router.state.location.pathname).toBe('/convertor'));
    expect(getCookie('remembered_email')).toBeUndefined();
  });
});
