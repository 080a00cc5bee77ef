import { MESSAGES } from '@parla/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import ValidateEmailAddressPage from '../../../app/routes/auth/validate-email-address';
import { deleteCookie, getCookie } from '../../../lib/cookies';
import { interceptFetch, jsonResponse, renderAt, restoreFetch } from '../../../test/render';
import { tokenExpiringIn } from '../../../test/session';

afterEach(() => {
  cleanup();
  restoreFetch();
  deleteCookie('token');
});

function renderPage() {
  return renderAt(
    '/auth/validate-email-address/v4l1d',
    '/auth/validate-email-address/:key',
    <ValidateEmailAddressPage />,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('email validation page', () => {
  it('waits 3 seconds, validates once, keeps the token and goes to /convertor', async () => {
    const token = tokenExpiringIn();
    const { calls } = interceptFetch((call) =>
      call.url.startsWith('/api/auth/validate_email_address/')
        ? jsonResponse(200, { token, expire_date: new Date(Date.now() + 3_600_000).toISOString() })
        : jsonResponse(401, { message: 'no' }),
    );
    const { router } = renderPage();
    expect(
      screen.getByRole('heading', { level: 1, name: 'Email address validation' }),
    ).toBeTruthy();
    expect(screen.getByText(MESSAGES.emailValidation.waiting)).toBeTruthy();
    expect(screen.getByText(MESSAGES.emailValidation.patience)).toBeTruthy();
    await sleep(2500);
    expect(calls).toEqual([]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/convertor'), {
      timeout: 3000,
    });
    const validations = calls.filter((call) => call.url.includes('validate_email_address'));
    expect(validations).toEqual([
      { method: 'GET', url: '/api/auth/validate_email_address/v4l1d', body: undefined },
    ]);
    expect(getCookie('token')).toBe(token);
  }, 10_000);

  it('on failure shows the SPEC text with its login and contact links', async () => {
    interceptFetch(() => jsonResponse(400, { message: 'This link is invalid.' }));
    renderPage();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert.textContent).toBe(MESSAGES.emailValidation.failed);
    expect(screen.getByRole('link', { name: 'login' }).getAttribute('href')).toBe('/auth/login');
    expect(screen.getByRole('link', { name: 'contact us' }).getAttribute('href')).toBe('/contact');
    expect(getCookie('token')).toBeUndefined();
  }, 10_000);
});
