import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { createUser, grantAdmin, type IssuedToken } from './server.js';

let counter = 0;

/** A new user with a validated address, unique per call, created through the server's CLI. */
export async function newUser(plan = 'FREE'): Promise<IssuedToken & { email: string }> {
  counter += 1;
  const email = `e2e-${process.pid}-${Date.now()}-${counter}@example.com`;
  const issued = await createUser(inject('serverEnv'), {
    email,
    password: 'correct-horse-1',
    plan,
  });
  return { ...issued, email };
}

/** Billing settings that pass SPEC's rules, as a buyer fills them on the account page. */
export const TEST_BILLING = {
  name: 'Ada Lovelace',
  phone: '+44 20 7946 0000',
  address: {
    country: 'GB',
    state: null,
    city: 'London',
    line1: '1 Analytical Row',
    line2: null,
    postal_code: null,
  },
  tax: { type: null, code: null },
};

/** A new user made an administrator of the console with `parla admin grant`. */
export async function newAdmin(): Promise<IssuedToken & { email: string }> {
  const user = await newUser();
  await grantAdmin(inject('serverEnv'), user.email);
  return user;
}

/** Signs the page's context in by setting the token cookie, as the login page would. */
export async function setTokenCookie(page: Page, token: string, baseUrl: string): Promise<void> {
  await page.context().addCookies([{ name: 'token', value: token, url: baseUrl }]);
}

/**
 * The same token of a real user, expired an hour ago and signed again with the server's own
 * secret (DATA_DIR/secrets.json): everything about it is genuine except its exp claim.
 */
export function expiredCopyOf(token: string): string {
  const [header, payload] = token.split('.');
  if (!header || !payload) throw new Error('not a JWT');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
    exp: number;
    iat?: number;
  };
  const exp = Math.floor(Date.now() / 1000) - 3600;
  const expired = { ...claims, iat: exp - 60, exp };
  const secretFile = path.join(inject('serverEnv').DATA_DIR ?? '', 'secrets.json');
  const { jwtSecret } = JSON.parse(readFileSync(secretFile, 'utf8')) as { jwtSecret: string };
  const unsigned = `${header}.${Buffer.from(JSON.stringify(expired)).toString('base64url')}`;
  const signature = createHmac('sha256', jwtSecret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}
