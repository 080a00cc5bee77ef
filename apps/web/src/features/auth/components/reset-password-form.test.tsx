import { MESSAGES } from '@parla/contract';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import ResetPasswordPage from '../../../app/routes/auth/reset-password';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';

afterEach(() => {
  cleanup();
  restoreFetch();
});

function renderPage() {
  renderAt('/auth/reset-password/k3y', '/auth/reset-password/:key', <ResetPasswordPage />);
}

async function fillAndSubmit() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^New password/), 'secret-9');
  await user.type(screen.getByLabelText(/^Confirm password/), 'secret-9');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  return user;
}

describe('reset password form', () => {
  it("has 'Remember password!' checked and sends the new password with the route's key", async () => {
    const { calls } = interceptFetch(() => jsonResponse(200, { message: 'done' }));
    renderPage();
    const remember = screen.getByRole('checkbox', { name: 'Remember password!' });
    expect((remember as HTMLInputElement).checked).toBe(true);
    expect(screen.getByLabelText(/^New password/).getAttribute('autocomplete')).toBe(
      'new-password',
    );
    await fillAndSubmit();
    const alert = await screen.findByRole('status');
    expect(alert.textContent).toBe(MESSAGES.auth.resetPasswordSuccess);
    expect(screen.getByRole('link', { name: 'Go to login page!' }).getAttribute('href')).toBe(
      '/auth/login',
    );
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      url: '/api/auth/reset_password/k3y',
      body: { password: 'secret-9' },
    });
  });

  it("shows the server's message, or 'Failed change password!'", async () => {
    let answer = jsonResponse(400, { message: 'This link is invalid.' });
    interceptFetch(() => answer);
    renderPage();
    const user = await fillAndSubmit();
    expect((await screen.findByRole('alert')).textContent).toBe('This link is invalid.');
    answer = jsonResponse(500, {});
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(MESSAGES.auth.resetPasswordFailed)).toBeTruthy();
  });
});
