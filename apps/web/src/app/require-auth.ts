import { redirect } from 'react-router';
import { hasValidTokenCookie, nowInSeconds } from '../lib/auth-token';

export const LOGIN_PATH = '/auth/login';

/**
 * SPEC §2 "Access guard": the route loader of /account, /account/plan, /account/checkout and
 * /file-history. It runs before the page renders; without an unexpired token cookie the
 * browser goes to /auth/login and the page is never shown.
 */
export function requireAuth(cookieString: string, now = nowInSeconds()): Response | null {
  return hasValidTokenCookie(cookieString, now) ? null : redirect(LOGIN_PATH);
}

export function requireAuthLoader(): Response | null {
  const denied = requireAuth(document.cookie);
  if (denied) throw denied;
  return null;
}
