import {
  ADMIN_MESSAGES,
  AdminAuditListSchema,
  AdminContactMessageListSchema,
  AdminUserDetailSchema,
  AdminUserListSchema,
  AdminUserSchema,
  CreatedApiKeySchema,
  fileMediaQuery,
  ProfileSchema,
} from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { multipart } from '../../../test/multipart.js';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
  uniqueEmail,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { AUTH_MESSAGES } from '../../services/accounts/messages.js';
import { setRole } from '../../services/admin/administrators.js';
import { createUsageLog } from '../../services/admin/usage-log.js';

/*
 * The operator console's API (issue 31, decision 044). On PostgreSQL this file has a database
 * of its own: the last-administrator rule counts every administrator of the database.
 */
const smtp = await startSmtpServer();
const ownUrl = await ownDatabaseUrl('admin');
const app = await createTestApp({
  config: testConfig({ SMTP_URL: smtp.url, ...(ownUrl && { DATABASE_URL: ownUrl }) }),
});
await app.ready();

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A signed-in administrator, made as `parla admin grant` makes one. */
async function administrator() {
  const signedIn = await signedInUser(app);
  const granted = await setRole(app.db, { id: signedIn.user.id }, 'ADMIN', null);
  expect(granted.ok).toBe(true);
  return signedIn;
}

const call = (method: Method, url: string, headers: Headers, payload?: object) =>
  app.inject({ method, url, headers, ...(payload && { payload }) });

async function apiKeyOf(authorization: string) {
  const response = await call('POST', '/api/account/api_keys', { authorization }, { name: 'Key' });
  expect(response.statusCode).toBe(201);
  return CreatedApiKeySchema.parse(response.json()).key;
}

async function profileOf(authorization: string) {
  const response = await call('GET', '/api/account/profile', { authorization });
  expect(response.statusCode).toBe(200);
  return ProfileSchema.parse(response.json());
}

async function latestAudit(authorization: string) {
  const response = await call('GET', '/api/admin/audit?per_page=1', { authorization });
  expect(response.statusCode).toBe(200);
  return AdminAuditListSchema.parse(response.json()).items[0];
}

/** Every /api/admin operation of the OpenAPI document. */
function adminOperations() {
  const paths = app.swagger().paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .filter(([path]) => path.startsWith('/api/admin'))
    .flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase() as Method, path })),
    );
}

/** A valid body for each operation that takes one: a refusal is the guard's, never validation's. */
const VALID_BODIES: Record<string, object> = {
  'POST /api/admin/users/{id}/characters': { characters: 100, reason: 'Test' },
  'PUT /api/admin/users/{id}/plan': { type: 'BASIC', reason: 'Test' },
  'PUT /api/admin/users/{id}/role': { role: 'ADMIN' },
  'PUT /api/admin/messages/{id}': { status: 'answered' },
  'POST /api/admin/payments/{id}/refunds': { reason: 'Test', characters: 'none' },
  'PUT /api/admin/voices/voice': { voice_id: 'standard:en-us', hidden: true },
  'PUT /api/admin/voices/language': { language_code: 'en-us', hidden: true },
  'POST /api/admin/voices/install': { name: 'kokoro-int8-multi-lang-v1_0' },
  'PUT /api/admin/plans/{type}': {
    price: 9,
    count_characters: 500_000,
    count_characters_per_convert: 5_000,
    storage_bytes: 0,
    engines: ['neural'],
  },
  'POST /api/admin/content/preview': { body: '# Title' },
  'POST /api/admin/content/images': { name: 'guard.svg', data: 'PHN2Zz48L3N2Zz4=' },
  'PUT /api/admin/content/{kind}/{language}/{slug}': {
    front_matter: { title: 'T', description: 'D', category: 'Main' },
    body: '',
  },
  'POST /api/admin/content/{kind}/{language}/{slug}/publish': {},
};

describe(`the operator console's guard (${TEST_DATABASE_KIND})`, () => {
  it('refuses every /api/admin operation to anonymous, USER, an administrator’s API key and a disabled administrator', async () => {
    const operations = adminOperations();
    expect(operations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        'DELETE /api/admin/users/{id}',
        'GET /api/admin/audit',
        'GET /api/admin/content',
        'GET /api/admin/content/images',
        'GET /api/admin/content/{kind}/{language}/{slug}',
        'GET /api/admin/messages',
        'GET /api/admin/overview',
        'GET /api/admin/overview/health',
        'GET /api/admin/payments',
        'GET /api/admin/payments/{id}',
        'GET /api/admin/payments/{id}/invoice.pdf',
        'GET /api/admin/plans',
        'GET /api/admin/users',
        'GET /api/admin/users/{id}',
        'POST /api/admin/content/images',
        'POST /api/admin/content/preview',
        'POST /api/admin/content/{kind}/{language}/{slug}/publish',
        'POST /api/admin/content/{kind}/{language}/{slug}/revisions/{id}/restore',
        'POST /api/admin/payments/{id}/refunds',
        'POST /api/admin/users/{id}/characters',
        'POST /api/admin/users/{id}/disable',
        'POST /api/admin/users/{id}/enable',
        'POST /api/admin/users/{id}/validation-mail',
        'PUT /api/admin/content/{kind}/{language}/{slug}',
        'PUT /api/admin/messages/{id}',
        'PUT /api/admin/plans/{type}',
        'PUT /api/admin/users/{id}/plan',
        'PUT /api/admin/users/{id}/role',
        'GET /api/admin/voices',
        'PUT /api/admin/voices/voice',
        'PUT /api/admin/voices/language',
        'GET /api/admin/voices/available',
        'GET /api/admin/voices/install',
        'POST /api/admin/voices/install',
        'DELETE /api/admin/voices/install',
        'DELETE /api/admin/voices/installed/{name}',
      ].sort(),
    );
    const active = await administrator();
    const withKey = await administrator();
    const key = await apiKeyOf(withKey.authorization);
    const disabled = await administrator();
    const user = await signedInUser(app);
    const target = await signedInUser(app);
    const disabling = await call('POST', `/api/admin/users/${disabled.user.id}/disable`, {
      authorization: active.authorization,
    });
    expect(disabling.statusCode).toBe(200);
    const auditBefore = AdminAuditListSchema.parse(
      (await call('GET', '/api/admin/audit', { authorization: active.authorization })).json(),
    ).total;

    const callers: [string, Headers, number, string][] = [
      ['anonymous', {}, 401, 'Please log in to continue.'],
      ['a USER', { authorization: user.authorization }, 403, ADMIN_MESSAGES.notAdmin],
      ['an API key (Bearer)', { authorization: `Bearer ${key}` }, 403, ADMIN_MESSAGES.apiKey],
      ['an API key (X-API-Key)', { 'x-api-key': key }, 403, ADMIN_MESSAGES.apiKey],
      [
        'a disabled administrator',
        { authorization: disabled.authorization },
        401,
        AUTH_MESSAGES.disabled,
      ],
    ];
    for (const { method, path } of operations) {
      const url = path
        .replace('{id}', target.user.id)
        .replace('{name}', 'kokoro-int8-multi-lang-v1_0');
      const body = VALID_BODIES[`${method} ${path}`];
      for (const [who, headers, status, message] of callers) {
        const response = await call(method, url, headers, body);
        expect(response.statusCode, `${method} ${path} as ${who}`).toBe(status);
        expect(response.json().message, `${method} ${path} as ${who}`).toBe(message);
      }
    }
    // Nothing was done: the target is as it was, and the log has no new entry.
    const stored = await app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', target.user.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual(target.user);
    const auditAfter = AdminAuditListSchema.parse(
      (await call('GET', '/api/admin/audit', { authorization: active.authorization })).json(),
    ).total;
    expect(auditAfter).toBe(auditBefore);
    // Five callers for every operation, and four accounts made first: a minute on a loaded machine.
  }, 60_000);

  it('reads the role from the database at every request: a revoked administrator is refused at once', async () => {
    const first = await administrator();
    const second = await administrator();
    const headers = { authorization: second.authorization };
    expect((await call('GET', '/api/admin/users', headers)).statusCode).toBe(200);
    const revoked = await call(
      'PUT',
      `/api/admin/users/${second.user.id}/role`,
      { authorization: first.authorization },
      { role: 'USER' },
    );
    expect(revoked.statusCode).toBe(200);
    const refused = await call('GET', '/api/admin/users', headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ADMIN_MESSAGES.notAdmin);
  });

  it('never demotes, disables or deletes the last administrator who can sign in', async () => {
    const last = await administrator();
    const headers = { authorization: last.authorization };
    // The file's other administrators become users: `last` is the only one who can sign in.
    const others = await app.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'ADMIN')
      .where('id', '!=', last.user.id)
      .execute();
    for (const { id } of others) {
      const demoted = await call('PUT', `/api/admin/users/${id}/role`, headers, { role: 'USER' });
      expect(demoted.statusCode).toBe(200);
    }
    const attempts: [Method, string, object | undefined][] = [
      ['PUT', `/api/admin/users/${last.user.id}/role`, { role: 'USER' }],
      ['POST', `/api/admin/users/${last.user.id}/disable`, undefined],
      ['DELETE', `/api/admin/users/${last.user.id}`, undefined],
    ];
    for (const [method, url, body] of attempts) {
      const response = await call(method, url, headers, body);
      expect(response.statusCode, `${method} ${url}`).toBe(409);
      expect(response.json().message).toBe(ADMIN_MESSAGES.lastAdmin);
    }
    expect((await profileOf(last.authorization)).user.role).toBe('ADMIN');
    // With a second administrator, the first may step down.
    const next = await signedInUser(app);
    const promoted = await call('PUT', `/api/admin/users/${next.user.id}/role`, headers, {
      role: 'ADMIN',
    });
    expect(AdminUserSchema.parse(promoted.json()).role).toBe('ADMIN');
    const stepDown = await call('PUT', `/api/admin/users/${last.user.id}/role`, headers, {
      role: 'USER',
    });
    expect(stepDown.statusCode).toBe(200);
    expect((await profileOf(last.authorization)).user.role).toBe('USER');
  });
});

describe(`the operator console's actions (${TEST_DATABASE_KIND})`, () => {
  it('answers bad input 4xx naming the field, changing nothing', async () => {
    const { authorization } = await administrator();
    const user = await signedInUser(app);
    const headers = { authorization };
    const id = user.user.id;
    const cases: [Method, string, object | undefined, number, string][] = [
      ['POST', `/api/admin/users/${id}/characters`, { characters: 10 }, 400, 'reason'],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: 10, reason: '  ' },
        400,
        'reason',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: 0, reason: 'x' },
        400,
        'characters',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: 1.5, reason: 'x' },
        400,
        'characters',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: '5', reason: 'x' },
        400,
        'characters',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: 2e9, reason: 'x' },
        400,
        'characters',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: -1e6, reason: 'x' },
        400,
        'characters',
      ],
      [
        'POST',
        `/api/admin/users/${id}/characters`,
        { characters: 1, reason: 'a\u0000b' },
        400,
        'reason',
      ],
      ['PUT', `/api/admin/users/${id}/plan`, { type: 'GOLD', reason: 'x' }, 400, 'type'],
      ['PUT', `/api/admin/users/${id}/plan`, { type: 'BASIC' }, 400, 'reason'],
      ['PUT', `/api/admin/users/${id}/role`, { role: 'ROOT' }, 400, 'role'],
      ['PUT', '/api/admin/messages/nope', { status: 'spam' }, 400, 'status'],
      ['GET', '/api/admin/users?page=0', undefined, 400, 'page'],
      ['GET', '/api/admin/users?per_page=500', undefined, 400, 'per_page'],
      ['GET', `/api/admin/users?query=${'a'.repeat(201)}`, undefined, 400, 'query'],
      ['GET', '/api/admin/messages?status=spam', undefined, 400, 'status'],
      ['GET', '/api/admin/audit?page=x', undefined, 400, 'page'],
    ];
    for (const [method, url, body, status, field] of cases) {
      const response = await call(method, url, headers, body);
      const label = `${method} ${url.slice(0, 60)} ${JSON.stringify(body)}`;
      expect(response.statusCode, label).toBe(status);
      const answer = response.json() as { message: string; errors?: { path: string }[] };
      expect(answer.errors?.[0]?.path, label).toBe(field);
      expect(answer.message, label).toContain(field);
    }
    for (const [method, url] of [
      ['GET', '/api/admin/users/no-such-user'],
      ['POST', '/api/admin/users/no-such-user/disable'],
      ['DELETE', '/api/admin/users/no-such-user'],
    ] as const) {
      const response = await call(method, url, headers);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().message).toBe(ADMIN_MESSAGES.userNotFound);
    }
    const missing = await call('PUT', '/api/admin/messages/no-such-message', headers, {
      status: 'archived',
    });
    expect(missing.statusCode).toBe(404);
    expect((await profileOf(user.authorization)).plan.count_characters).toBe(
      (await app.plans.catalogue()).FREE.count_characters,
    );
  });

  it("grants and removes characters with a reason: the user's own allowance shows them, the log keeps them", async () => {
    const admin = await administrator();
    const user = await signedInUser(app);
    const headers = { authorization: admin.authorization };
    const url = `/api/admin/users/${user.user.id}/characters`;
    const start = (await app.plans.catalogue()).FREE.count_characters;
    const granted = await call('POST', url, headers, { characters: 5000, reason: 'Goodwill' });
    expect(granted.statusCode).toBe(200);
    expect(AdminUserSchema.parse(granted.json()).plan.count_characters).toBe(start + 5000);
    expect((await profileOf(user.authorization)).plan.count_characters).toBe(start + 5000);
    expect(await latestAudit(admin.authorization)).toMatchObject({
      actor_id: admin.user.id,
      actor_email: admin.user.email,
      action: 'user.characters',
      target_type: 'user',
      target_id: user.user.id,
      before: { count_characters: start },
      after: { count_characters: start + 5000 },
      reason: 'Goodwill',
    });
    // Never below zero: the whole removal is refused.
    const tooMany = await call('POST', url, headers, { characters: -(start + 5001), reason: 'x' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({
      message: ADMIN_MESSAGES.belowZero(start + 5000),
      errors: [{ path: 'characters', message: ADMIN_MESSAGES.belowZero(start + 5000) }],
    });
    const removed = await call('POST', url, headers, {
      characters: -(start + 5000),
      reason: 'Abuse',
    });
    expect(AdminUserSchema.parse(removed.json()).plan.count_characters).toBe(0);
    expect((await profileOf(user.authorization)).plan.count_characters).toBe(0);
    expect(await latestAudit(admin.authorization)).toMatchObject({
      before: { count_characters: start + 5000 },
      after: { count_characters: 0 },
      reason: 'Abuse',
    });
  });

  it('disabling stops an existing session and an API key at once, and login; enabling restores them', async () => {
    const admin = await administrator();
    const user = await signedInUser(app);
    const key = await apiKeyOf(user.authorization);
    const headers = { authorization: admin.authorization };
    const asUser: Record<string, string>[] = [
      { authorization: user.authorization },
      { 'x-api-key': key },
    ];
    for (const credentials of asUser) {
      expect((await call('GET', '/api/account/profile', credentials)).statusCode).toBe(200);
    }
    const disabled = await call('POST', `/api/admin/users/${user.user.id}/disable`, headers);
    expect(AdminUserSchema.parse(disabled.json()).disabled_date).not.toBeNull();
    for (const credentials of asUser) {
      const refused = await call('GET', '/api/account/profile', credentials);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toBe(AUTH_MESSAGES.disabled);
    }
    // The API's conversions too, and OpenAI's route with its own error shape.
    const converting = await call('POST', '/api/v1/speech', { 'x-api-key': key }, { text: 'Hi' });
    expect(converting.statusCode).toBe(401);
    const openAi = await call(
      'POST',
      '/v1/audio/speech',
      { authorization: `Bearer ${key}` },
      { model: 'tts-1', input: 'Hi', voice: 'alloy' },
    );
    expect(openAi.statusCode).toBe(401);
    const login = await call(
      'POST',
      '/api/auth/login',
      {},
      { email: user.user.email, password: user.password },
    );
    expect(login.statusCode).toBe(403);
    expect(login.json()).toEqual({ message: AUTH_MESSAGES.disabled });
    expect(await latestAudit(admin.authorization)).toMatchObject({
      action: 'user.disable',
      before: { disabled_date: null },
      after: { disabled_date: expect.any(String) },
    });

    const enabled = await call('POST', `/api/admin/users/${user.user.id}/enable`, headers);
    expect(AdminUserSchema.parse(enabled.json()).disabled_date).toBeNull();
    for (const credentials of asUser) {
      expect((await call('GET', '/api/account/profile', credentials)).statusCode).toBe(200);
    }
    expect(await latestAudit(admin.authorization)).toMatchObject({
      action: 'user.enable',
      after: { disabled_date: null },
    });
  });

  it("finds users by email and shows one's plan, keys by prefix, payments and sign-ins", async () => {
    const admin = await administrator();
    const headers = { authorization: admin.authorization };
    const user = await signedInUser(app, { plan: 'BASIC' });
    const key = await apiKeyOf(user.authorization);
    const login = await call(
      'POST',
      '/api/auth/login',
      { 'user-agent': 'Console test browser' },
      { email: user.user.email, password: user.password },
    );
    expect(login.statusCode).toBe(200);

    const local = user.user.email.split('@')[0] ?? '';
    const found = await call(
      'GET',
      `/api/admin/users?query=${encodeURIComponent(local.toUpperCase())}`,
      headers,
    );
    const list = AdminUserListSchema.parse(found.json());
    expect(list.total).toBe(1);
    expect(list.items[0]?.email).toBe(user.user.email);
    // LIKE's own characters are taken as they are written.
    const wildcard = AdminUserListSchema.parse(
      (await call('GET', '/api/admin/users?query=%25_%25', headers)).json(),
    );
    expect(wildcard.total).toBe(0);
    const paged = AdminUserListSchema.parse(
      (await call('GET', '/api/admin/users?per_page=1&page=2', headers)).json(),
    );
    expect(paged.items).toHaveLength(1);
    expect(paged.total).toBeGreaterThan(1);

    const detail = await call('GET', `/api/admin/users/${user.user.id}`, headers);
    expect(detail.statusCode).toBe(200);
    const shown = AdminUserDetailSchema.parse(detail.json());
    expect(shown.user).toMatchObject({ email: user.user.email, plan: { type: 'BASIC' } });
    expect(shown.api_keys).toHaveLength(1);
    expect(key.startsWith(shown.api_keys[0]?.prefix ?? 'none')).toBe(true);
    expect(detail.body).not.toContain(key);
    expect(shown.sign_ins[0]).toMatchObject({ user_agent: 'Console test browser' });
    expect(shown.files).toEqual({ count: 0, bytes: 0, recent: [] });
    expect(shown.usage).toEqual([]);
    expect(shown.jobs).toEqual([]);
    expect(shown.payments).toEqual([]);
  });

  it("shows a user's usage from the log (after the audio expired), files and documents", async () => {
    const admin = await administrator();
    const headers = { authorization: admin.authorization };
    const user = await signedInUser(app, { plan: 'BASIC' });
    const text = 'A saved conversion for the console.';
    const own = { authorization: user.authorization };
    const settings = voiceSettings({ text, output_format: 'mp3' });
    const converted = await call('POST', '/api/convertor', own, settings);
    expect(converted.statusCode).toBe(200);
    // Saved as the Save button saves it: the audio uploaded with its settings.
    const audio = await app.inject({ method: 'GET', url: converted.json().path });
    const body = multipart('media', audio.rawPayload, 'audio.bin', 'application/octet-stream');
    const saved = await app.inject({
      method: 'POST',
      url: `/api/file/media?${new URLSearchParams(fileMediaQuery(settings))}`,
      headers: { ...own, 'x-requested-with': 'parla', ...body.headers },
      payload: body.payload,
    });
    expect(saved.statusCode).toBe(200);
    const chapter = { title: 'Chapter one', text: 'A document of one sentence.' };
    const job = await call('POST', '/api/jobs', own, {
      title: 'A book',
      chapters: [chapter],
      output_format: 'mp3',
      language_code: 'en-US',
      engine: 'standard',
    });
    expect(job.statusCode).toBe(202);
    // A chapter is read from its title on.
    const jobCharacters = `${chapter.title}.\n\n${chapter.text}`.length;
    const detailOf = async () =>
      AdminUserDetailSchema.parse(
        (await call('GET', `/api/admin/users/${user.user.id}`, headers)).json(),
      );
    const today = new Date().toISOString().slice(0, 10);
    // This app runs no jobs (JOB_RUNNER=off): the job's end is logged as the runner logs it
    // (features/jobs/jobs.test.ts checks that it does).
    await createUsageLog(app.db).record({
      source: 'job',
      status: 'succeeded',
      userId: user.user.id,
      engine: 'standard',
      voice: 'standard:en-us',
      language: 'en-us',
      characters: jobCharacters,
      duration: 3,
    });
    expect((await detailOf()).usage).toEqual([
      { day: today, conversions: 2, characters: text.length + jobCharacters },
    ]);
    const shown = await detailOf();
    expect(shown.files.count).toBe(1);
    expect(shown.files.recent).toEqual([
      expect.objectContaining({ audio_format: 'mp3', size: shown.files.bytes }),
    ]);
    expect(shown.files.recent[0]?.length).toBeGreaterThan(1);
    expect(shown.jobs).toEqual([
      expect.objectContaining({ title: 'A book', characters: jobCharacters }),
    ]);
    // The conversion's row goes when its audio expires; the day's usage stays.
    await app.db.deleteFrom('conversions').where('user_id', '=', user.user.id).execute();
    expect((await detailOf()).usage).toEqual(shown.usage);
    // Another user's usage is not theirs.
    const other = await signedInUser(app);
    expect(
      AdminUserDetailSchema.parse(
        (await call('GET', `/api/admin/users/${other.user.id}`, headers)).json(),
      ).usage,
    ).toEqual([]);
  });

  it('changes the plan without a charge, and resends the validation mail', async () => {
    const admin = await administrator();
    const headers = { authorization: admin.authorization };
    const user = await signedInUser(app);
    const changed = await call('PUT', `/api/admin/users/${user.user.id}/plan`, headers, {
      type: 'PREMIUM',
      reason: 'Partner',
    });
    expect(AdminUserSchema.parse(changed.json()).plan).toMatchObject({
      type: 'PREMIUM',
      period: 'month',
      count_characters: (await app.plans.catalogue()).FREE.count_characters,
      count_characters_per_convert: (await app.plans.catalogue()).PREMIUM
        .count_characters_per_convert,
    });
    expect((await profileOf(user.authorization)).plan.type).toBe('PREMIUM');
    const payments = await app.db
      .selectFrom('payments')
      .select('id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(payments).toEqual([]);
    expect(await latestAudit(admin.authorization)).toMatchObject({
      action: 'user.plan',
      before: { type: 'FREE', period: 'none' },
      after: { type: 'PREMIUM', period: 'month' },
      reason: 'Partner',
    });

    const validated = await call(
      'POST',
      `/api/admin/users/${user.user.id}/validation-mail`,
      headers,
    );
    expect(validated.statusCode).toBe(409);
    expect(validated.json().message).toBe(ADMIN_MESSAGES.alreadyValidated);
    const email = uniqueEmail('unvalidated');
    await call('POST', '/api/auth/register', {}, { email, password: 'secret-123' });
    await smtp.mailTo(email);
    const { id } = await app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const resent = await call('POST', `/api/admin/users/${id}/validation-mail`, headers);
    expect(resent.json()).toEqual({ message: ADMIN_MESSAGES.validationSent(email) });
    const mail = await smtp.mailTo(email);
    expect(mail.text).toMatch(/\/auth\/validate-email-address\/[\w-]+/);
  });

  it('deletes an account as its owner could, keeping what it was in the log', async () => {
    const admin = await administrator();
    const headers = { authorization: admin.authorization };
    const user = await signedInUser(app);
    const deleted = await call('DELETE', `/api/admin/users/${user.user.id}`, headers);
    expect(deleted.json()).toEqual({ message: ADMIN_MESSAGES.deleted(user.user.email) });
    expect(
      (await call('GET', '/api/account/profile', { authorization: user.authorization })).statusCode,
    ).toBe(401);
    expect((await call('GET', `/api/admin/users/${user.user.id}`, headers)).statusCode).toBe(404);
    expect(await latestAudit(admin.authorization)).toMatchObject({
      action: 'user.delete',
      target_id: user.user.id,
      before: { email: user.user.email },
      after: null,
    });
  });

  it('stores contact messages as well as mailing them, with a status', async () => {
    const admin = await administrator();
    const headers = { authorization: admin.authorization };
    const from = uniqueEmail('visitor');
    const sent = await call(
      'POST',
      '/api/mail/contact',
      {},
      {
        name: 'Ada Lovelace',
        from,
        subject: 'A Welsh voice',
        message: 'Do you have a Welsh voice for our audio guide?',
      },
    );
    expect(sent.statusCode).toBe(200);
    const listed = AdminContactMessageListSchema.parse(
      (await call('GET', '/api/admin/messages?status=new', headers)).json(),
    );
    const message = listed.items.find((item) => item.email === from);
    expect(message).toMatchObject({
      name: 'Ada Lovelace',
      subject: 'A Welsh voice',
      status: 'new',
    });
    const answered = await call('PUT', `/api/admin/messages/${message?.id}`, headers, {
      status: 'answered',
    });
    expect(answered.json()).toMatchObject({ id: message?.id, status: 'answered' });
    const stillNew = AdminContactMessageListSchema.parse(
      (await call('GET', '/api/admin/messages?status=new', headers)).json(),
    );
    expect(stillNew.items.some((item) => item.id === message?.id)).toBe(false);
    expect(await latestAudit(admin.authorization)).toMatchObject({
      action: 'message.status',
      target_type: 'message',
      before: { status: 'new' },
      after: { status: 'answered' },
    });
  });

  it('keeps an audit log nothing can change or remove, newest first', async () => {
    const admin = await administrator();
    const user = await signedInUser(app);
    const headers = { authorization: admin.authorization };
    await call('POST', `/api/admin/users/${user.user.id}/characters`, headers, {
      characters: 1,
      reason: 'first',
    });
    await call('POST', `/api/admin/users/${user.user.id}/characters`, headers, {
      characters: 2,
      reason: 'second',
    });
    const page = AdminAuditListSchema.parse(
      (await call('GET', '/api/admin/audit?per_page=2', headers)).json(),
    );
    expect(page.items.map((entry) => entry.reason)).toEqual(['second', 'first']);
    await expect(
      app.db.updateTable('audit_log').set({ reason: 'rewritten' }).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(app.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    const again = AdminAuditListSchema.parse(
      (await call('GET', '/api/admin/audit?per_page=2', headers)).json(),
    );
    expect(again.items).toEqual(page.items);
  });
});
