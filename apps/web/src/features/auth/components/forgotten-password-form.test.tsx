import { MESSAGES } from '@parla/contract';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import ForgottenPasswordPage from '../../../app/routes/auth/forgotten-password';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';

afterEach(() => {
  cleanup();
  restoreFetch();
});

function renderPage() {
  renderAt('/auth/forgotten-password', '/auth/forgotten-password', <ForgottenPasswordPage />);
}

describe('forgotten password form', () => {
  it("says 'Email sent successfully!' with the server's explanation", async () => {
    const user = userEvent.setup();
    const { calls } = interceptFetch(() => jsonResponse(200, { message: 'If an account exists…' }));
    renderPage();
    await user.type(screen.getByLabelText(/Email address/), 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const alert = await screen.findByRole('status');
    expect(alert.textContent).toBe(
      `${MESSAGES.auth.forgottenPasswordSuccess}If an account exists…`,
    );
    expect(calls[0]?.body).toEqual({ email: 'me@example.com' });
  });

  it("says 'Email sent unsuccessfully!' on failure", async () => {
    const user = userEvent.setup();
    interceptFetch(() => jsonResponse(500, {}));
    renderPage();
    await user.type(screen.getByLabelText(/Email address/), 'me@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      MESSAGES.auth.forgottenPasswordFailed,
    );
  });

  it('validates the address before sending anything', async () => {
    const user = userEvent.setup();
    const { calls } = interceptFetch(() => jsonResponse(200, { message: 'ok' }));
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(MESSAGES.auth.emailRequired)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
