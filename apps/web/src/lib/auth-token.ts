import { TOKEN_COOKIE } from '@parla/contract';
import { getCookie, parseCookie } from './cookies';

/**
 * The claims of a JWT, read without verifying the signature: the browser only needs the expiry
 * to decide whether to show a guarded page; the server verifies every token it is sent.
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The current time in seconds, the unit of the JWT `exp` claim (SPEC §9). */
export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** SPEC §2 "Access guard": a token whose `exp` claim (seconds) is still in the future. */
export function isTokenUnexpired(token: string | undefined, now = nowInSeconds()): boolean {
  if (!token) return false;
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) && exp > now;
}

/** Whether a `document.cookie`-style string carries an unexpired token cookie. */
export function hasValidTokenCookie(cookieString: string, now = nowInSeconds()): boolean {
  return isTokenUnexpired(parseCookie(cookieString, TOKEN_COOKIE), now);
}

/** The token cookie of this browser, if any. */
export function getToken(): string | undefined {
  return getCookie(TOKEN_COOKIE);
}
