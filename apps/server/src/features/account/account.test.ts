import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { FileMediaQuerySchema, fileMediaQuery, MESSAGES } from '@parla/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
  uniqueEmail,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { CHANGE_EMAIL_LIMITS } from '../../lib/limits.js';
import { createLocalStorage } from '../../lib/storage/local.js';
import { within } from '../../lib/storage/storage.js';
import { createFileRepository } from '../../services/files/repository.js';
import { ACCOUNT_MESSAGES } from './routes.js';
import { isValidTaxCode, TAX_ID_TYPES } from './tax-ids.js';

const smtp = await startSmtpServer();
const config = testConfig({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://parla.test' });
const app = await createTestApp({ config });

const asUser = (authorization: string) => ({
  put: (url: string, payload: object) =>
    app.inject({ method: 'PUT', url, payload, headers: { authorization } }),
  get: (url: string) => app.inject({ method: 'GET', url, headers: { authorization } }),
  delete: (url: string) => app.inject({ method: 'DELETE', url, headers: { authorization } }),
});

describe(`account (${TEST_DATABASE_KIND})`, () => {
  it('changes the email address only once the link mailed to the new address is opened', async () => {
    const { user, password, authorization } = await signedInUser(app);
    const me = asUser(authorization);
    const newEmail = uniqueEmail('moved');
    const response = await me.put('/api/account/change_email', { email: newEmail });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: ACCOUNT_MESSAGES.emailChangePending(newEmail) });

    // Until validated, the old address is still the one to log in with.
    const beforeLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password },
    });
    expect(beforeLogin.statusCode).toBe(200);
    expect((await me.get('/api/account/profile')).json().user.email).toBe(user.email);

    const mail = await smtp.mailTo(newEmail);
    const key = /validate-email-address\/([\w-]+)/.exec(mail.text ?? '')?.[1];
    const validated = await app.inject({
      method: 'GET',
      url: `/api/auth/validate_email_address/${key}`,
    });
    expect(validated.statusCode).toBe(200);

    expect((await me.get('/api/account/profile')).json().user.email).toBe(newEmail);
    const oldLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: newEmail, password },
    });
    expect(newLogin.json().has_email_address_validated).toBe(true);
  });

  it('answers an address of another account as a free one, telling only its owner', async () => {
    // Issue 28 item 7: a 409 told anyone signed in which addresses have accounts.
    const other = await signedInUser(app);
    const { user, authorization } = await signedInUser(app);
    const taken = await asUser(authorization).put('/api/account/change_email', {
      email: other.user.email,
    });
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({
      message: ACCOUNT_MESSAGES.emailChangePending(other.user.email),
    });
    const mail = await smtp.mailTo(other.user.email);
    expect(mail.subject).toBe('Someone tried to move a Parla account to your address');
    // No link that would move the account onto the owner's address.
    expect(mail.text).not.toMatch(/validate-email-address/);
    const same = await asUser(authorization).put('/api/account/change_email', {
      email: user.email,
    });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ message: ACCOUNT_MESSAGES.sameEmail });
    const invalid = await asUser(authorization).put('/api/account/change_email', { email: 'nope' });
    expect(invalid.json().message).toBe('Incorect email address.');
  });

  it('limits change_email per user and per address named', async () => {
    const { authorization } = await signedInUser(app);
    const statuses: number[] = [];
    for (let i = 0; i <= CHANGE_EMAIL_LIMITS.perUser.max; i += 1) {
      const response = await asUser(authorization).put('/api/account/change_email', {
        email: uniqueEmail('limit'),
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    // One address named again and again is mailed a few times, then refused.
    expect(CHANGE_EMAIL_LIMITS.abuse.perAddress).toBeLessThan(CHANGE_EMAIL_LIMITS.perUser.max);
    const someone = await signedInUser(app);
    const target = uniqueEmail('target');
    const named: number[] = [];
    for (let i = 0; i <= CHANGE_EMAIL_LIMITS.abuse.perAddress; i += 1) {
      const response = await asUser(someone.authorization).put('/api/account/change_email', {
        email: target,
      });
      named.push(response.statusCode);
    }
    expect(named.slice(0, -1).every((status) => status === 200)).toBe(true);
    expect(named.at(-1)).toBe(429);
  }, 60_000);

  it('changes the password with the right current one, ending other sessions', async () => {
    const { user, password, authorization } = await signedInUser(app);
    const wrong = await asUser(authorization).put('/api/account/change_password', {
      old_password: 'not my password',
      new_password: 'brand new secret',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: ACCOUNT_MESSAGES.wrongOldPassword });

    const changed = await asUser(authorization).put('/api/account/change_password', {
      old_password: password,
      new_password: 'brand new secret',
    });
    expect(changed.statusCode).toBe(200);
    const session = changed.json() as { token: string };
    expect((await asUser(authorization).get('/api/account/profile')).statusCode).toBe(401);
    expect((await asUser(`Bearer ${session.token}`).get('/api/account/profile')).statusCode).toBe(
      200,
    );
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'brand new secret' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('answers the change-password field messages of SPEC §5', async () => {
    const { authorization } = await signedInUser(app);
    const response = await asUser(authorization).put('/api/account/change_password', {
      old_password: '',
      new_password: '123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { path: 'old_password', message: 'Old password is required.' },
      { path: 'new_password', message: MESSAGES.account.newPasswordMin },
    ]);
  });

  it('deletes the account: the user is gone and their token refused', async () => {
    const { user, authorization } = await signedInUser(app);
    const deleted = await asUser(authorization).delete('/api/account/delete');
    expect(deleted.statusCode).toBe(200);
    const row = await app.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    expect((await asUser(authorization).get('/api/account/profile')).statusCode).toBe(401);
  });

  it('deletes the account in one transaction: when a step fails, nothing is gone', async () => {
    const { user, authorization } = await signedInUser(app, { plan: 'BASIC' });
    const storage = within(createLocalStorage(path.join(config.dataDir, 'files')), 'saved');
    const saved = await createFileRepository(app.db, storage).create(
      user.id,
      Buffer.from('audio bytes'),
      { format: 'wav', mimeType: 'audio/wav', length: 1, sampleRate: 16000 },
      {
        query: FileMediaQuerySchema.parse(
          fileMediaQuery(voiceSettings({ output_format: 'wav', sample_rate: 16000 })),
        ),
        language: 'English',
        voice: 'Voice',
      },
    );
    // The fault: the database refuses to delete this one user (the last step).
    const refuse =
      TEST_DATABASE_KIND === 'postgres'
        ? [
            sql`create function refuse_delete() returns trigger as $$ begin raise exception 'refused'; end $$ language plpgsql`,
            sql`create trigger refuse_delete before delete on users for each row when (old.id = ${sql.lit(user.id)}) execute function refuse_delete()`,
          ]
        : [
            sql`create trigger refuse_delete before delete on users when old.id = ${sql.lit(user.id)} begin select raise(abort, 'refused'); end`,
          ];
    for (const statement of refuse) await statement.execute(app.db);
    try {
      const failed = await asUser(authorization).delete('/api/account/delete');
      expect(failed.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_delete${sql.raw(TEST_DATABASE_KIND === 'postgres' ? ' on users' : '')}`.execute(
        app.db,
      );
      if (TEST_DATABASE_KIND === 'postgres')
        await sql`drop function refuse_delete()`.execute(app.db);
    }
    const file = await app.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', saved.id)
      .executeTakeFirst();
    expect(file?.storage_key).toBe(saved.storage_key);
    const stored = await storage.read(saved.storage_key);
    expect(stored && (await buffer(stored))).toEqual(Buffer.from('audio bytes'));
    expect((await asUser(authorization).get('/api/account/profile')).statusCode).toBe(200);

    expect((await asUser(authorization).delete('/api/account/delete')).statusCode).toBe(200);
    expect(await storage.stat(saved.storage_key)).toBeUndefined();
  });

  it('refuses every account call without a valid token', async () => {
    for (const [method, url] of [
      ['GET', '/api/account/profile'],
      ['PUT', '/api/account/change_email'],
      ['PUT', '/api/account/change_password'],
      ['DELETE', '/api/account/delete'],
    ] as const) {
      const response = await app.inject({
        method,
        url,
        payload: method === 'PUT' ? {} : undefined,
      });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe(`billing details (${TEST_DATABASE_KIND})`, () => {
  const billing = {
    name: 'Ada Lovelace Ltd',
    phone: '+44 20 7946 0000',
    address: {
      country: 'de',
      state: '',
      city: 'Berlin',
      line1: 'Unter den Linden 1',
      line2: '  ',
      postal_code: '',
    },
    tax: { type: 'eu_vat', code: 'de 123 456 789' },
  };

  it('lists tax id types per country whose examples match their own patterns', async () => {
    const { authorization } = await signedInUser(app);
    const response = await asUser(authorization).get('/api/account/tax_ids');
    expect(response.statusCode).toBe(200);
    const options = response.json() as Array<{ type: string; country: string; pattern: string }>;
    expect(options).toContainEqual(expect.objectContaining({ type: 'eu_vat', country: 'DE' }));
    expect(options).toContainEqual(expect.objectContaining({ type: 'gb_vat', country: 'GB' }));
    expect(options.filter((o) => o.type === 'eu_vat')).toHaveLength(27);
    for (const entry of TAX_ID_TYPES) {
      expect(
        isValidTaxCode(entry.type, entry.country, entry.example),
        `${entry.type} ${entry.country}`,
      ).toBe(true);
    }
    expect(isValidTaxCode('eu_vat', 'DE', 'DE12345678')).toBe(false);
    expect(isValidTaxCode('gb_vat', 'DE', 'GB123456789')).toBe(false);
  });

  it('saves billing details, optional blanks as null and the tax code normalised', async () => {
    const { authorization } = await signedInUser(app);
    const saved = await asUser(authorization).put('/api/account/invoice_info', billing);
    expect(saved.statusCode).toBe(200);
    const profile = (await asUser(authorization).get('/api/account/profile')).json();
    expect(profile.user).toMatchObject({
      name: 'Ada Lovelace Ltd',
      phone: '+44 20 7946 0000',
      address: {
        country: 'DE',
        state: null,
        city: 'Berlin',
        line1: 'Unter den Linden 1',
        line2: null,
        postal_code: null,
      },
      tax: { type: 'eu_vat', code: 'DE123456789' },
    });
  });

  it('refuses a tax code that does not match its type, and changes nothing', async () => {
    const { authorization } = await signedInUser(app);
    await asUser(authorization).put('/api/account/invoice_info', billing);
    const bad = await asUser(authorization).put('/api/account/invoice_info', {
      ...billing,
      name: 'Someone Else',
      tax: { type: 'eu_vat', code: 'DE12' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: ACCOUNT_MESSAGES.badTaxCode('eu_vat', 'DE123456789') });
    const wrongCountry = await asUser(authorization).put('/api/account/invoice_info', {
      ...billing,
      tax: { type: 'gb_vat', code: 'GB123456789' },
    });
    expect(wrongCountry.statusCode).toBe(400);
    expect(wrongCountry.json().message).toBe('GB VAT is not a tax id type of Germany.');
    const profile = (await asUser(authorization).get('/api/account/profile')).json();
    expect(profile.user.name).toBe('Ada Lovelace Ltd');
  });

  it('saves a private customer with no tax details, and refuses half a tax pair', async () => {
    const { authorization } = await signedInUser(app);
    const privateCustomer = await asUser(authorization).put('/api/account/invoice_info', {
      ...billing,
      tax: { type: null, code: null },
    });
    expect(privateCustomer.statusCode).toBe(200);
    const half = await asUser(authorization).put('/api/account/invoice_info', {
      ...billing,
      tax: { type: 'eu_vat', code: '' },
    });
    expect(half.statusCode).toBe(400);
    expect(half.json().message).toBe('Tax code is required.');
  });

  it.each([
    [{ name: '' }, 'Name is required.'],
    [{ name: 'Al' }, 'Name must be at least 3 characters long.'],
    [{ phone: '123' }, 'Phone number must be at least 10 characters long.'],
    [{ address: { ...billing.address, city: '' } }, 'City is required.'],
    [{ address: { ...billing.address, country: 'XX' } }, 'XX is not a country code we know.'],
  ])('refuses %j with "%s"', async (change, message) => {
    const { authorization } = await signedInUser(app);
    const response = await asUser(authorization).put('/api/account/invoice_info', {
      ...billing,
      ...change,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });
});
