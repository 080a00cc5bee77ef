import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { interceptFetch, jsonResponse, renderAt } from '../test/render';
import { signedInForEachTest } from '../test/session';
import { useLogout } from './auth';
import { getToken } from './auth-token';

const token = signedInForEachTest();

/** What the header's Logout menu item does, without the menu around it. */
function LogoutButton() {
  const logout = useLogout();
  return (
    <button type="button" onClick={() => void logout()}>
      Logout
    </button>
  );
}

async function logOut() {
  const view = renderAt('/account', '/account', <LogoutButton />);
  await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
  await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/login'));
}

describe('logout (SPEC §4, issue 13 item 4)', () => {
  it('ends the session on the server with its token, then forgets it and goes to /auth/login', async () => {
    const sent = token();
    const { calls, spy } = interceptFetch((call) =>
      call.url === '/api/auth/logout'
        ? jsonResponse(200, { message: 'You are logged out.' })
        : jsonResponse(404, { message: 'unexpected' }),
    );
    await logOut();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual(['POST /api/auth/logout']);
    const init = spy.mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${sent}`);
    expect(getToken()).toBeUndefined();
  });

  it('still signs out here when the server cannot be reached', async () => {
    interceptFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await logOut();
    expect(getToken()).toBeUndefined();
  });
});
