import { encodeRemembered, MESSAGES } from '@parla/contract';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import RegisterPage from '../../../app/routes/auth/register';
import { deleteCookie, getCookie } from '../../../lib/cookies';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';

afterEach(() => {
  cleanup();
  restoreFetch();
  deleteCookie('remembered_email');
});

const submit = () => screen.getByRole('button', { name: 'Register' });

async function fill(email: string, password: string, confirm: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/Email address/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.type(screen.getByLabelText(/^Confirm password/), confirm);
  return user;
}

describe('register form', () => {
  it('disables submit while the agreement is unchecked', async () => {
    const user = userEvent.setup();
    renderAt('/auth/register', '/auth/register', <RegisterPage />);
    expect((submit() as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByRole('checkbox', { name: /I agree to the Terms/ }));
    expect((submit() as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the confirm messages of the schema, and the match error follows the password', async () => {
    const user = userEvent.setup();
    renderAt('/auth/register', '/auth/register', <RegisterPage />);
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.auth.confirmPasswordRequired)).toBeTruthy();
    await user.type(screen.getByLabelText(/^Password/), 'secret-1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'secret-2');
    expect(await screen.findByText(MESSAGES.auth.confirmPasswordMatch)).toBeTruthy();
    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'secret-2');
    expect(screen.queryByText(MESSAGES.auth.confirmPasswordMatch)).toBeNull();
  });

  it('on success shows the SPEC message with its login link and remembers the email', async () => {
    const { calls } = interceptFetch(() =>
      jsonResponse(201, { message: 'Open the link we sent to your email address.' }),
    );
    renderAt('/auth/register', '/auth/register', <RegisterPage />);
    const user = await fill('new@example.com', 'secret-1', 'secret-1');
    await user.click(submit());
    const alert = await screen.findByRole('status');
    expect(alert.textContent).toContain(MESSAGES.auth.registerSuccess);
    expect(alert.textContent).toContain('Open the link we sent to your email address.');
    expect(screen.getByRole('link', { name: 'Go to login page!' }).getAttribute('href')).toBe(
      '/auth/login',
    );
    expect(calls[0]?.body).toEqual({ email: 'new@example.com', password: 'secret-1' });
    expect(getCookie('remembered_email')).toBe(encodeRemembered('new@example.com'));
  });

  it("shows the server's message, or 'Failed register!'", async () => {
    let answer = jsonResponse(409, { message: 'An account with this email address exists.' });
    interceptFetch(() => answer);
    renderAt('/auth/register', '/auth/register', <RegisterPage />);
    const user = await fill('dup@example.com', 'secret-1', 'secret-1');
    await user.click(submit());
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An account with this email address exists.',
    );
    answer = jsonResponse(500, {});
    await user.click(submit());
    expect(await screen.findByText(MESSAGES.auth.registerFailed)).toBeTruthy();
  });
});
