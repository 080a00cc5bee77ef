import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ADMIN_PLAN_MESSAGES,
  AdminAuditListSchema,
  type AdminPlanList,
  AdminPlanListSchema,
  type AdminPlanTermsInput,
  encodeTestCardToken,
  PLAN_STORAGE_QUOTA_BYTES,
  type PlanInfo,
  PlanInfoSchema,
} from '@parla/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { paymentCalls } from '../../../test/payments.js';
import { TEST_REDIS_URL, testRedis } from '../../../test/redis.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { setRole } from '../../services/admin/administrators.js';
import { CONVERT_MESSAGES } from '../../services/conversion/messages.js';
import { PLANS_TTL_MS } from '../../services/plans/plan-store.js';

/*
 * The console's Plans (issue 31 §4, decision 055), on a database of this file's own (a price
 * changed here would change every other file's purchases).
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-admin-plans-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const ownUrl = await ownDatabaseUrl('plans');
const env = {
  DATABASE_URL: ownUrl || `sqlite:${path.join(dataDir, 'parla.sqlite')}`,
  // The seed of the empty database.
  PLAN_BASIC_PRICE: '12.5',
  PLAN_BASIC_CHARACTERS: '600000',
  PLAN_PREMIUM_ENGINES: 'standard',
};
const app = await createTestApp({ config: testConfig(env), conversionsPerMinute: 1000 });
await app.ready();

type App = typeof app;
type Method = 'GET' | 'PUT';

async function administrator(on: App = app) {
  const signedIn = await signedInUser(on);
  expect((await setRole(on.db, { id: signedIn.user.id }, 'ADMIN', null)).ok).toBe(true);
  return signedIn.authorization;
}
const authorization = await administrator();

const admin = (method: Method, url: string, payload?: object, on: App = app, as = authorization) =>
  on.inject({ method, url, headers: { authorization: as }, ...(payload && { payload }) });

async function planInfo(on: App = app): Promise<PlanInfo> {
  const response = await on.inject({ method: 'GET', url: '/api/plan/info' });
  expect(response.statusCode).toBe(200);
  return PlanInfoSchema.parse(response.json());
}

const BASIC: AdminPlanTermsInput = {
  price: 12.5,
  count_characters: 600_000,
  count_characters_per_convert: 5_000,
  storage_bytes: PLAN_STORAGE_QUOTA_BYTES.BASIC,
  engines: ['neural', 'standard'],
};

async function edit(type: string, terms: object, on: App = app, as = authorization) {
  return admin('PUT', `/api/admin/plans/${type}`, terms, on, as);
}

const VISA = encodeTestCardToken({
  number: '4242424242424242',
  brand: 'Visa',
  exp_month: 12,
  exp_year: 2099,
});

describe(`the console's plans (${TEST_DATABASE_KIND})`, () => {
  it('seeds an empty database from PLAN_* and the defaults, and never overwrites an edit', async () => {
    const listed = await admin('GET', '/api/admin/plans');
    expect(listed.statusCode).toBe(200);
    const { plans } = AdminPlanListSchema.parse(listed.json());
    expect(plans.map((plan) => plan.type)).toEqual(['FREE', 'BASIC', 'PREMIUM', 'BUSINESS']);
    expect(plans[1]).toEqual({ type: 'BASIC', ...BASIC, updated_at: null });
    expect(plans[2]?.engines).toEqual(['standard']);
    expect((await planInfo()).basic).toEqual(BASIC);

    const edited = { ...BASIC, price: 14 };
    expect((await edit('BASIC', edited)).statusCode).toBe(200);
    // A restart with other PLAN_* values: the edited row stays, as does every other.
    const restarted = await createTestApp({
      config: testConfig({ ...env, PLAN_BASIC_PRICE: '99', PLAN_FREE_CHARACTERS: '5000' }),
    });
    try {
      expect((await planInfo(restarted)).basic).toEqual(edited);
      expect((await planInfo(restarted)).free.count_characters).toBe(20_000);
    } finally {
      await restarted.close();
    }
    expect((await edit('BASIC', BASIC)).statusCode).toBe(200);
  });

  it('shows a change on the pricing page at once, audited with before and after', async () => {
    const changed = { ...BASIC, price: 19.99, count_characters: 700_000 };
    const response = await edit('BASIC', changed);
    expect(response.statusCode, response.body).toBe(200);
    const basic = (response.json() as AdminPlanList).plans.find((plan) => plan.type === 'BASIC');
    expect(basic).toMatchObject(changed);
    expect(basic?.updated_at).not.toBeNull();
    expect((await planInfo()).basic).toEqual(changed);

    const audit = AdminAuditListSchema.parse(
      (await admin('GET', '/api/admin/audit?per_page=1')).json(),
    ).items[0];
    expect(audit).toMatchObject({
      action: 'plan.update',
      target_type: 'plan',
      target_id: 'BASIC',
      before: BASIC,
      after: changed,
    });
    expect((await edit('BASIC', BASIC)).statusCode).toBe(200);
  });

  it('keeps what a user bought when the plan changes after, and gives the new terms to the next', async () => {
    const { pay, profile } = paymentCalls(app);
    const buy = async () => {
      const buyer = await signedInUser(app, { billing: true });
      const paid = await pay(buyer.authorization, {
        token: VISA,
        name_on_card: 'Ada Lovelace',
        type: 'BASIC',
      });
      expect(paid.statusCode, paid.body).toBe(200);
      return buyer;
    };
    const convert = (as: string, engine: 'standard' | 'neural') =>
      app.inject({
        method: 'POST',
        url: '/api/convertor',
        headers: { authorization: as },
        payload: voiceSettings({ text: 'Hello there.', engine }),
      });
    const before = await buy();
    const bought = await profile(before.authorization);
    expect(bought.plan).toMatchObject({
      type: 'BASIC',
      count_characters: 20_000 + 600_000,
      count_characters_per_convert: 5_000,
      count_characters_allowance: 600_000,
    });

    // BASIC costs more, gives less, and no longer has the standard engine.
    const changed = {
      ...BASIC,
      price: 30,
      count_characters: 100_000,
      count_characters_per_convert: 2_000,
      storage_bytes: 1_000,
      engines: ['neural'],
    };
    const quota = async (as: string) =>
      (
        await app.inject({ method: 'GET', url: '/api/file/usage', headers: { authorization: as } })
      ).json().quota_bytes;
    expect((await edit('BASIC', changed)).statusCode).toBe(200);

    // The first buyer keeps all of it, the engine included.
    expect((await profile(before.authorization)).plan).toEqual(bought.plan);
    const kept = await convert(before.authorization, 'standard');
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await quota(before.authorization)).toBe(BASIC.storage_bytes);

    const after = await buy();
    const payments = await paymentCalls(app).payments(after.user.id);
    expect(payments.map((payment) => payment.amount_cents)).toEqual([3000]);
    expect((await profile(after.authorization)).plan).toMatchObject({
      count_characters: 20_000 + 100_000,
      count_characters_per_convert: 2_000,
      count_characters_allowance: 100_000,
      // The convertor offers only these.
      engines: ['neural'],
    });
    expect(await quota(after.authorization)).toBe(1_000);
    const refused = await convert(after.authorization, 'standard');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      success: false,
      message: ADMIN_PLAN_MESSAGES.engineNotInPlan('standard', 'BASIC'),
    });
    // A document (job) too: the engine is refused before anything is queued or charged.
    const job = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization: after.authorization },
      payload: { title: 'A note', text: 'A short note.', engine: 'standard' },
    });
    expect(job.statusCode).toBe(400);
    expect(job.json().message).toBe(ADMIN_PLAN_MESSAGES.engineNotInPlan('standard', 'BASIC'));
    expect((await paymentCalls(app).payments(before.user.id))[0]?.amount_cents).toBe(1250);
    expect((await edit('BASIC', BASIC)).statusCode).toBe(200);
  }, 30_000);

  it('refuses a visitor an engine FREE does not have', async () => {
    const free = (await planInfo()).free;
    expect((await edit('FREE', { ...free, engines: ['neural'] })).statusCode).toBe(200);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ text: 'Hello.' }),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(ADMIN_PLAN_MESSAGES.engineNotInPlan('standard', 'FREE'));
    expect((await edit('FREE', free)).statusCode).toBe(200);
  });

  it("gives visitors FREE's allowance as the console has it now", async () => {
    const free = (await planInfo()).free;
    const small = { ...free, count_characters: 200, count_characters_per_convert: 200 };
    expect((await edit('FREE', small)).statusCode).toBe(200);
    try {
      const text = 'A visitor converts this sentence. '.repeat(6).slice(0, 150);
      const first = await app.inject({
        method: 'POST',
        url: '/api/convertor',
        payload: voiceSettings({ text }),
      });
      expect(first.statusCode, first.body).toBe(200);
      const cookie = String(first.headers['set-cookie']).split(';')[0] ?? '';
      expect(cookie).toMatch(/^parla_visitor=/);
      // The same visitor: 150 of FREE's 200 characters spent, not of the 20,000 it had.
      const second = await app.inject({
        method: 'POST',
        url: '/api/convertor',
        headers: { cookie },
        payload: voiceSettings({ text }),
      });
      expect(second.statusCode, second.body).toBe(402);
      expect(second.json().message).toBe(CONVERT_MESSAGES.noCharactersLeft(50));
    } finally {
      expect((await edit('FREE', free)).statusCode).toBe(200);
    }
  });

  it('answers a mistake with a 4xx naming the field, and changes nothing', async () => {
    const cases: Array<[string, object, string, string]> = [
      ['FREE', { ...BASIC, price: 5 }, 'price', ADMIN_PLAN_MESSAGES.freePrice],
      ['BASIC', { ...BASIC, price: 9.999 }, 'price', ADMIN_PLAN_MESSAGES.price],
      ['BASIC', { ...BASIC, price: -1 }, 'price', ADMIN_PLAN_MESSAGES.price],
      [
        'BASIC',
        { ...BASIC, count_characters: 1.5 },
        'count_characters',
        ADMIN_PLAN_MESSAGES.whole('count_characters'),
      ],
      [
        'BASIC',
        { ...BASIC, count_characters_per_convert: 600_001 },
        'count_characters_per_convert',
        ADMIN_PLAN_MESSAGES.perConvert,
      ],
      [
        'BASIC',
        { ...BASIC, storage_bytes: -1 },
        'storage_bytes',
        ADMIN_PLAN_MESSAGES.whole('storage_bytes'),
      ],
      ['BASIC', { ...BASIC, engines: [] }, 'engines', ADMIN_PLAN_MESSAGES.engines],
      [
        'BASIC',
        { ...BASIC, engines: ['turbo'] },
        'engines.0',
        'engines must be one of neural, standard.',
      ],
      ['GOLD', BASIC, 'type', 'type must be one of FREE, BASIC, PREMIUM, BUSINESS.'],
    ];
    const before = await planInfo();
    for (const [type, body, field, message] of cases) {
      const response = await edit(type, body);
      expect(response.statusCode, `${type} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json().errors).toContainEqual({ path: field, message });
    }
    expect(await planInfo()).toEqual(before);
    // A USER is refused before anything is read.
    const user = await signedInUser(app);
    expect((await edit('BASIC', BASIC, app, user.authorization)).statusCode).toBe(403);
  });
});

const redis = await testRedis('the plans message');
describe.skipIf(!redis.reachable)(`with Redis (${TEST_DATABASE_KIND})`, () => {
  it('shows a change on another server at once', async () => {
    const shared = { ...env, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: redis.prefix };
    const first = await createTestApp({ config: testConfig(shared) });
    const second = await createTestApp({ config: testConfig(shared) });
    await Promise.all([first.ready(), second.ready()]);
    try {
      const operator = await administrator(first);
      expect((await planInfo(second)).basic.price).toBe(12.5);
      const started = Date.now();
      expect((await edit('BASIC', { ...BASIC, price: 21 }, first, operator)).statusCode).toBe(200);
      // Well within the time to live: the message, not the expiry, made it visible.
      while ((await planInfo(second)).basic.price !== 21) {
        expect(Date.now() - started).toBeLessThan(PLANS_TTL_MS - 1000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await edit('BASIC', BASIC, first, operator)).statusCode).toBe(200);
    } finally {
      await first.close();
      await second.close();
    }
  }, 60_000);
});
