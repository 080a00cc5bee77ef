import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { deleteCookie, setCookie } from '../lib/cookies';
import { signJwt } from './jwt';
import { restoreFetch } from './render';

/** A token like the server's, expiring in `seconds` (negative: already expired). */
export function tokenExpiringIn(seconds = 3600): string {
  return signJwt({ sub: 'u', exp: Math.floor(Date.now() / 1000) + seconds });
}

/**
 * Every test of the file starts signed in (a valid token cookie) and leaves nothing behind:
 * the rendered page, the fetch interceptor and the cookie. Answers the current test's token.
 */
export function signedInForEachTest(): () => string {
  let token = '';
  beforeEach(() => {
    token = tokenExpiringIn();
    setCookie('token', token, new Date(Date.now() + 3_600_000));
  });
  afterEach(() => {
    cleanup();
    restoreFetch();
    deleteCookie('token');
  });
  return () => token;
}
