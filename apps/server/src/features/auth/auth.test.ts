import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  TEST_DATABASE_KIND,
  testConfig,
  uniqueEmail,
} from '../../../test/test-app.js';
import { hashPassword } from '../../lib/password.js';
import { createKeyRepository } from '../../services/accounts/keys.js';
import { AUTH_MESSAGES } from '../../services/accounts/messages.js';
import { createUserRepository } from '../../services/accounts/user-repository.js';
import { LOGIN_DELAY, loginDelaySeconds } from './login-failures.js';

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

  it('answers a taken address as a new one, keeps the account, and mails its owner', async () => {
    const { email, password } = await registerAndValidate();
    const again = await post('/api/auth/register', {
      email: email.toUpperCase(),
      password: 'other one',
    });
    const fresh = await post('/api/auth/register', {
      email: uniqueEmail('fresh'),
      password: 'other one',
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ message: AUTH_MESSAGES.registered });
    expect(again.json()).toEqual(fresh.json());
    const mail = await smtp.mailTo(email);
    expect(mail.subject).toBe('Someone tried to create a Parla account with your address');
    expect(mail.text).toContain('https://parla.test/auth/forgotten-password');
    expect((await login(email, 'other one')).statusCode).toBe(401);
    expect((await login(email, password)).statusCode).toBe(200);
  });

  it('registering an address that was never validated mails a validation link again', async () => {
    const email = uniqueEmail('twice');
    await post('/api/auth/register', { email, password: 'secret-123' });
    const firstKey = keyFrom(await smtp.mailTo(email), 'validate-email-address');
    expect((await post('/api/auth/register', { email, password: 'secret-456' })).statusCode).toBe(
      201,
    );
    const secondKey = keyFrom(await smtp.mailTo(email), 'validate-email-address');
    expect(secondKey).not.toBe(firstKey);
    expect((await login(email, 'secret-456')).statusCode).toBe(401);
  });

  it('gives no token to an unvalidated address, mails a fresh link, and the first one still works', async () => {
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
    // The link already sent keeps working after the re-send…
    const first = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${firstKey}`,
    });
    expect(first.statusCode).toBe(200);
    // …and once the address is validated, the other links have done their job.
    const second = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${secondKey}`,
    });
    expect(second.statusCode).toBe(400);
  });

  it("logout ends this session on the server; the same user's other sessions go on", async () => {
    const { email, password, session } = await registerAndValidate();
    const other = (await login(email, password)).json() as { token: string };
    const profile = (token: string) =>
      app.inject({
        method: 'GET',
        url: '/api/account/profile',
        headers: { authorization: `Bearer ${token}` },
      });
    const logout = (token: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
    const out = await logout(session.token);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: AUTH_MESSAGES.loggedOut });
    expect((await profile(session.token)).statusCode).toBe(401);
    expect((await logout(session.token)).statusCode).toBe(401);
    expect((await profile(other.token)).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401);
  });

  it('refuses a token signed with our key but without an expiry', async () => {
    const { email } = await registerAndValidate();
    const user = await createUserRepository(app.db).findByEmail(email);
    const forever = await new SignJWT({ ver: user?.token_version ?? 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user?.id ?? '')
      .setIssuer('parla')
      .setAudience('parla-web')
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(new TextEncoder().encode(config.jwtSecret));
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${forever}` },
    });
    expect(response.statusCode).toBe(401);
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
    // With the mail server not answering, a known address still gets its answer at once: the
    // answer waits for nothing a known address does and an unknown one does not.
    const release = smtp.hold();
    const known = await post('/api/auth/forgotten_password', { email });
    const unknown = await post('/api/auth/forgotten_password', { email: uniqueEmail('ghost') });
    release();
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: AUTH_MESSAGES.resetSent });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);

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

  it('stops repeated reset requests for one address with 429, while other addresses go on', async () => {
    const email = uniqueEmail('limited');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await limited.inject({
        method: 'POST',
        url: '/api/auth/forgotten_password',
        payload: { email },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const blocked = await limited.inject({
      method: 'POST',
      url: '/api/auth/forgotten_password',
      payload: { email },
    });
    expect(blocked.json().message).toMatch(
      /^Too many requests\. Please try again in \d+ seconds\.$/,
    );
    const other = await limited.inject({
      method: 'POST',
      url: '/api/auth/forgotten_password',
      payload: { email: uniqueEmail('other') },
    });
    expect(other.statusCode).toBe(200);
  });
});

describe(`wrong passwords slow an address down (${TEST_DATABASE_KIND})`, async () => {
  let clock = new Date();
  const slowed = await createTestApp({
    config: testConfig({ SMTP_URL: smtp.url }),
    now: () => clock,
  });
  const tryLogin = (email: string, password: string) =>
    slowed.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const later = (seconds: number) => {
    clock = new Date(clock.getTime() + seconds * 1000);
  };

  it('ten wrong passwords cost nothing, then each attempt waits longer; the owner gets in after the wait', async () => {
    const password = 'owner password';
    const email = uniqueEmail('slowed');
    await createUserRepository(slowed.db).create({
      email,
      passwordHash: await hashPassword(password),
      terms: (await slowed.plans.catalogue()).FREE,
      emailValidated: true,
    });
    for (let i = 0; i < LOGIN_DELAY.freeFailures; i += 1) {
      expect((await tryLogin(email, `guess ${i}`)).statusCode).toBe(401);
    }
    // Even the right password waits: the delay says nothing about which guess was right.
    const waiting = await tryLogin(email, password);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('1');
    expect(waiting.json()).toEqual({ message: AUTH_MESSAGES.slowDown(1) });

    later(1);
    expect((await tryLogin(email, 'guess 10')).statusCode).toBe(401);
    const doubled = await tryLogin(email, password);
    expect(doubled.statusCode).toBe(429);
    expect(doubled.headers['retry-after']).toBe('2');

    later(2);
    const owner = await tryLogin(email, password);
    expect(owner.statusCode).toBe(200);
    // A success starts over: the next wrong password is answered at once.
    expect((await tryLogin(email, 'guess 11')).statusCode).toBe(401);
    expect((await tryLogin(email, password)).statusCode).toBe(200);
  }, 60_000);

  it('slows an unknown address the same way, and never waits longer than the cap', async () => {
    const email = uniqueEmail('nobody-slowed');
    for (let i = 0; i < LOGIN_DELAY.freeFailures; i += 1) {
      expect((await tryLogin(email, `guess ${i}`)).statusCode).toBe(401);
    }
    const eleventh = await tryLogin(email, 'guess 99');
    expect(eleventh.json()).toEqual({ message: AUTH_MESSAGES.slowDown(1) });
    expect(eleventh.headers['retry-after']).toBe('1');
    expect(loginDelaySeconds(LOGIN_DELAY.freeFailures + 30)).toBe(LOGIN_DELAY.maxDelaySeconds);
    const other = uniqueEmail('unaffected');
    expect((await tryLogin(other, 'guess 99')).statusCode).toBe(401);
  }, 60_000);
});
