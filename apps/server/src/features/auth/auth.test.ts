import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../test/smtp.js';
import { createTestApp, TEST_DATABASE_KIND, testConfig, uniqueEmail } from '../../test/test-app.js';
import { createUserRepository } from '../account/repository.js';
import { createKeyRepository } from './keys.js';
import { AUTH_MESSAGES } from './messages.js';

const smtp = await startSmtpServer();
const config = testConfig({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://parla.test' });
const app = await createTestApp({ config });

function keyFrom(mail: ParsedMail, route: string): string {
  const match = new RegExp(`https://parla\\.test/auth/${route}/([\\w-]+)`).exec(mail.text ?? '');
  if (!match?.[1]) throw new Error(`no ${route} link in: ${mail.text}`);
  expect(mail.html).toContain(`https://parla.test/auth/${route}/${match[1]}`);
  return match[1];
}

const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
const login = (email: string, password: string) => post('/api/auth/login', { email, password });

async function registerAndValidate(password = 'first password') {
  const email = uniqueEmail('auth');
  expect((await post('/api/auth/register', { email, password })).statusCode).toBe(201);
  const key = keyFrom(await smtp.mailTo(email), 'validate-email-address');
  const validated = await app.inject({
    method: 'GET',
    url: `/api/auth/validate_email_address/${key}`,
  });
  expect(validated.statusCode).toBe(200);
  return {
    email,
    password,
    key,
    session: validated.json() as { token: string; expire_date: string },
  };
}

describe(`auth (${TEST_DATABASE_KIND})`, () => {
  it('registers, mails a validation link that signs the user in, then logs in', async () => {
    const email = uniqueEmail('Register');
    const response = await post('/api/auth/register', { email, password: 'secret-123' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.registered });

    const mail = await smtp.mailTo(email.toLowerCase());
    expect(mail.subject).toBe('Confirm your email address for Parla');
    expect(mail.text).toContain('expires in 24 hours');
    const key = keyFrom(mail, 'validate-email-address');

    const validated = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${key}`,
    });
    expect(validated.statusCode).toBe(200);
    const session = validated.json() as { token: string; expire_date: string };
    expect(Date.parse(session.expire_date)).toBeGreaterThan(Date.now());
    const profile = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(profile.json()).toMatchObject({
      user: { email: email.toLowerCase(), role: 'USER' },
      plan: { type: 'FREE' },
    });

    const loggedIn = await login(email, 'secret-123');
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.json()).toMatchObject({ has_email_address_validated: true });
    expect(loggedIn.json().token).toEqual(expect.any(String));
  });

  it('refuses a second account for the same address, whatever its case', async () => {
    const { email } = await registerAndValidate();
    const again = await post('/api/auth/register', {
      email: email.toUpperCase(),
      password: 'other one',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.duplicate });
  });

  it('gives no token to an unvalidated address and mails a fresh validation link', async () => {
    const email = uniqueEmail('unvalidated');
    await post('/api/auth/register', { email, password: 'secret-123' });
    const firstKey = keyFrom(await smtp.mailTo(email), 'validate-email-address');
    const response = await login(email, 'secret-123');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      has_email_address_validated: false,
      token: null,
      expire_date: null,
    });
    const secondKey = keyFrom(await smtp.mailTo(email), 'validate-email-address');
    // Only the latest link works.
    const old = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${firstKey}`,
    });
    expect(old.statusCode).toBe(400);
    const fresh = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${secondKey}`,
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const { email } = await registerAndValidate();
    const wrong = await login(email, 'not the password');
    const unknown = await login(uniqueEmail('nobody'), 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: AUTH_MESSAGES.wrongCredentials });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses a validation key used twice, and an expired one', async () => {
    const { key } = await registerAndValidate();
    const reused = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${key}`,
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: AUTH_MESSAGES.badKey });

    const user = await createUserRepository(app.db).findByEmail(
      (await registerAndValidate()).email,
    );
    const longAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    const expired = await createKeyRepository(app.db).issue(
      user?.id ?? '',
      'validate_email',
      user?.email ?? '',
      longAgo,
    );
    const late = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${expired}`,
    });
    expect(late.statusCode).toBe(400);
  });

  it('resets a forgotten password through the mailed link, once, and signs out old sessions', async () => {
    const { email, session } = await registerAndValidate('old password');
    const known = await post('/api/auth/forgotten_password', { email });
    const unknown = await post('/api/auth/forgotten_password', { email: uniqueEmail('ghost') });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: AUTH_MESSAGES.resetSent });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());

    const mail = await smtp.mailTo(email);
    expect(mail.subject).toBe('Reset your Parla password');
    const key = keyFrom(mail, 'reset-password');
    const reset = await app.inject({
      method: 'PUT',
      url: `/api/auth/reset_password/${key}`,
      payload: { password: 'new password' },
    });
    expect(reset.statusCode).toBe(200);
    expect((await login(email, 'old password')).statusCode).toBe(401);
    expect((await login(email, 'new password')).statusCode).toBe(200);

    const again = await app.inject({
      method: 'PUT',
      url: `/api/auth/reset_password/${key}`,
      payload: { password: 'third password' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.badKey });

    const oldSession = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(oldSession.statusCode).toBe(401);
  });

  it('refuses an expired reset key', async () => {
    const { email } = await registerAndValidate();
    const user = await createUserRepository(app.db).findByEmail(email);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const key = await createKeyRepository(app.db).issue(
      user?.id ?? '',
      'reset_password',
      email,
      twoHoursAgo,
    );
    const response = await app.inject({
      method: 'PUT',
      url: `/api/auth/reset_password/${key}`,
      payload: { password: 'new password' },
    });
    expect(response.statusCode).toBe(400);
    expect((await login(email, 'new password')).statusCode).toBe(401);
  });

  it.each([
    ['/api/auth/register', { email: '', password: 'secret-123' }, 'Email address is required.'],
    ['/api/auth/register', { email: 'nope', password: 'secret-123' }, 'Incorect email address.'],
    ['/api/auth/register', { email: 'a@b.co', password: '' }, 'Password is required.'],
    [
      '/api/auth/register',
      { email: 'a@b.co', password: '12345' },
      'Password must be at least 6 characters long.',
    ],
    ['/api/auth/login', { email: 'a@b.co' }, 'Password is required.'],
    ['/api/auth/forgotten_password', {}, 'Email address is required.'],
  ])('answers %s %j with 400 "%s" and changes nothing', async (url, payload, message) => {
    const before = await app.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const response = await post(url, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    const after = await app.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});

describe('auth rate limits', async () => {
  const limited = await createTestApp({
    config: testConfig({ SMTP_URL: smtp.url }),
    abuseLimits: { perIp: 100, perAddress: 3, timeWindowMs: 60_000 },
  });

  it('stops repeated logins for one address with 429, while other addresses go on', async () => {
    const email = uniqueEmail('limited');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await limited.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'guess-123' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const blocked = await limited.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: 'guess-123' },
    });
    expect(blocked.json().message).toMatch(
      /^Too many requests\. Please try again in \d+ seconds\.$/,
    );
    const other = await limited.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: uniqueEmail('other'), password: 'guess-123' },
    });
    expect(other.statusCode).toBe(401);
  });
});
