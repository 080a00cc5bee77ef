import {
  decodeRemembered,
  encodeRemembered,
  REMEMBER_COOKIE_EXPIRES,
  REMEMBERED_EMAIL_COOKIE,
} from '@parla/contract';
import { deleteCookie, getCookie, setCookie } from '../../../lib/cookies';

/**
 * "Remember me" (SPEC §3, §4) keeps the email address in the remembered_email cookie to
 * prefill the forms. The password is never put in a cookie: the browser's password manager
 * keeps it (docs/decisions/004-remember-me-without-password.md).
 */

export function readRememberedEmail(): string | undefined {
  const stored = getCookie(REMEMBERED_EMAIL_COOKIE);
  return stored ? decodeRemembered(stored) : undefined;
}

export function rememberEmail(email: string): void {
  setCookie(REMEMBERED_EMAIL_COOKIE, encodeRemembered(email), new Date(REMEMBER_COOKIE_EXPIRES));
}

export function forgetEmail(): void {
  deleteCookie(REMEMBERED_EMAIL_COOKIE);
}

type PasswordCredentialConstructor = new (data: { id: string; password: string }) => Credential;

/**
 * Offers the email and password to the browser's password manager through the Credential
 * Management API, where the browser has it (Chromium). Forms that submit through fetch do not
 * always trigger the browser's own "save password?" offer; this makes the remember checkbox
 * mean something for the password too. Other browsers rely on the autocomplete attributes.
 */
export async function offerToPasswordManager(email: string, password: string): Promise<void> {
  const Constructor = (globalThis as { PasswordCredential?: PasswordCredentialConstructor })
    .PasswordCredential;
  if (!Constructor || !navigator.credentials?.store) return;
  try {
    await navigator.credentials.store(new Constructor({ id: email, password }));
  } catch {
    // The user declined, or the page is not allowed to store credentials: nothing to do.
  }
}
