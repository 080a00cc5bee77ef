import {
  ADMIN_OVERVIEW_MESSAGES,
  AdminHealthSchema,
  AdminOverviewSchema,
  addDays,
  encodeTestCardToken,
  type TestCard,
  utcDay,
} from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { paymentCalls } from '../../../test/payments.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';
import { setRole } from '../../services/admin/administrators.js';
import { createUsageLog } from '../../services/admin/usage-log.js';

/*
 * The console's overview (issue 31 section 1, decision 053), with exact figures per day: on
 * PostgreSQL this file has a database of its own, so every row counted is one made here.
 */
const ownUrl = await ownDatabaseUrl('overview');
const app = await createTestApp({
  config: testConfig(ownUrl ? { DATABASE_URL: ownUrl } : {}),
  conversionsPerMinute: 1000,
});
await app.ready();

const today = utcDay(new Date());
const admin = await signedInUser(app);
expect((await setRole(app.db, { id: admin.user.id }, 'ADMIN', null)).ok).toBe(true);

const get = (url: string, authorization = admin.authorization) =>
  app.inject({ method: 'GET', url, headers: { authorization } });

const convert = (text: string, authorization?: string, language = 'en-us') =>
  app.inject({
    method: 'POST',
    url: '/api/convertor',
    payload: voiceSettings({ text, language_code: language }),
    ...(authorization && { headers: { authorization } }),
  });

describe(`GET /api/admin/overview (${TEST_DATABASE_KIND})`, () => {
  it('counts each figure per day, zeros on days without data, and the top voices and languages', async () => {
    // Three days ago: a job rendered and a conversion that failed, as the service logs them.
    const user = await signedInUser(app);
    const threeDaysAgo = addDays(today, -3);
    const log = createUsageLog(app.db);
    const at = new Date(`${threeDaysAgo}T10:00:00.000Z`);
    await log.record(
      {
        source: 'job',
        status: 'succeeded',
        userId: user.user.id,
        engine: 'neural',
        voice: 'piper:fr_FR-siwis-medium',
        language: 'fr-fr',
        characters: 5000,
        duration: 330,
      },
      at,
    );
    await log.record(
      {
        source: 'conversion',
        status: 'failed',
        userId: null,
        engine: 'polly',
        voice: 'polly:Lea',
        language: 'fr-fr',
        characters: 40,
        duration: 0,
      },
      at,
    );

    // Today, through the routes: two conversions of the user, one of a visitor; 'en-US' is
    // counted with 'en-us'.
    for (const [text, authorization, language] of [
      ['Hello there.', user.authorization, 'en-us'],
      ['Good morning to you.', user.authorization, 'en-US'],
      ['Hi.', undefined, 'en-us'],
    ] as const) {
      const response = await convert(text, authorization, language);
      expect(response.statusCode).toBe(200);
    }
    const seconds = (await app.db.selectFrom('conversions').select('duration').execute()).reduce(
      (sum, row) => sum + row.duration,
      0,
    );
    expect(seconds).toBeGreaterThan(0);

    // Today: a payer buys BASIC with the test provider's card, and signs in.
    const payer = await signedInUser(app, { billing: true });
    const card: TestCard = {
      number: '4242424242424242',
      brand: 'Visa',
      exp_month: 12,
      exp_year: 2099,
    };
    const paid = await paymentCalls(app).pay(payer.authorization, {
      token: encodeTestCardToken(card),
      name_on_card: 'Ada Lovelace',
      type: 'BASIC',
    });
    expect(paid.statusCode).toBe(200);
    // The operator refunds $3 of it: the day's revenue is what was kept (decision 051).
    const [payment] = (
      await get(`/api/admin/payments?email=${encodeURIComponent(payer.user.email)}`)
    ).json().items as Array<{ id: string; amount_cents: number }>;
    expect(payment?.amount_cents).toBe(900);
    const refund = await app.inject({
      method: 'POST',
      url: `/api/admin/payments/${payment?.id}/refunds`,
      headers: { authorization: admin.authorization, 'idempotency-key': 'overview-refund-1' },
      payload: { amount_cents: 300, reason: 'Overview test', characters: 'none' },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: payer.user.email, password: payer.password },
    });
    expect(login.statusCode).toBe(200);

    const response = await get(`/api/admin/overview?from=${threeDaysAgo}&to=${today}`);
    expect(response.statusCode).toBe(200);
    const overview = AdminOverviewSchema.parse(response.json());
    const zero = {
      sign_ups: 0,
      active_users: 0,
      conversions: 0,
      characters: 0,
      audio_minutes: 0,
      revenue_cents: 0,
      errors: 0,
    };
    const todayFigures = {
      // The administrator, the user and the payer.
      sign_ups: 3,
      // The user (conversions) and the payer (a sign-in); not the visitor.
      active_users: 2,
      conversions: 3,
      characters: 'Hello there.'.length + 'Good morning to you.'.length + 'Hi.'.length,
      audio_minutes: Math.round((seconds / 60) * 100) / 100,
      revenue_cents: 600,
      errors: 0,
    };
    expect(overview).toEqual({
      from: threeDaysAgo,
      to: today,
      currency: 'usd',
      days: [
        {
          day: threeDaysAgo,
          ...zero,
          active_users: 1,
          conversions: 1,
          characters: 5000,
          audio_minutes: 5.5,
          errors: 1,
        },
        { day: addDays(today, -2), ...zero },
        { day: addDays(today, -1), ...zero },
        { day: today, ...todayFigures },
      ],
      totals: {
        sign_ups: 3,
        // The user counts once though active on two days.
        active_users: 2,
        conversions: 4,
        characters: todayFigures.characters + 5000,
        audio_minutes: Math.round(((seconds + 330) / 60) * 100) / 100,
        revenue_cents: 600,
        errors: 1,
      },
      top_voices: [
        {
          voice: 'standard:en-us',
          engine: 'standard',
          language: 'en-us',
          conversions: 3,
          characters: todayFigures.characters,
        },
        {
          voice: 'piper:fr_FR-siwis-medium',
          engine: 'neural',
          language: 'fr-fr',
          conversions: 1,
          characters: 5000,
        },
      ],
      top_languages: [
        { language: 'en-us', conversions: 3, characters: todayFigures.characters },
        { language: 'fr-fr', conversions: 1, characters: 5000 },
      ],
    });

    // Yesterday alone: nothing; the last 30 days by default, ending today.
    const yesterday = AdminOverviewSchema.parse(
      (await get(`/api/admin/overview?from=${addDays(today, -1)}&to=${addDays(today, -1)}`)).json(),
    );
    expect(yesterday.totals).toEqual(zero);
    expect(yesterday.top_voices).toEqual([]);
    const byDefault = AdminOverviewSchema.parse((await get('/api/admin/overview')).json());
    expect(byDefault.days).toHaveLength(30);
    expect([byDefault.from, byDefault.to]).toEqual([addDays(today, -29), today]);
    expect(byDefault.totals).toEqual(overview.totals);

    // A deleted account leaves its conversions counted, no longer its id.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/admin/users/${user.user.id}`,
      headers: { authorization: admin.authorization },
    });
    expect(deleted.statusCode).toBe(200);
    const after = AdminOverviewSchema.parse(
      (await get(`/api/admin/overview?from=${threeDaysAgo}&to=${today}`)).json(),
    );
    expect(after.totals).toMatchObject({
      conversions: overview.totals.conversions,
      characters: overview.totals.characters,
      errors: overview.totals.errors,
    });
    const kept = await app.db
      .selectFrom('usage_log')
      .select('user_id')
      .where('user_id', '=', user.user.id)
      .execute();
    expect(kept).toEqual([]);
  });

  it('answers 400 naming from or to for a period it cannot answer', async () => {
    const cases: [string, string, string][] = [
      ['from=2026-13-01', 'from', ADMIN_OVERVIEW_MESSAGES.date('from')],
      ['from=2026-02-30', 'from', ADMIN_OVERVIEW_MESSAGES.date('from')],
      ['to=yesterday', 'to', ADMIN_OVERVIEW_MESSAGES.date('to')],
      ['from=2026-11-02&to=2026-11-01', 'from', ADMIN_OVERVIEW_MESSAGES.order],
      ['from=2025-01-01&to=2026-01-02', 'from', ADMIN_OVERVIEW_MESSAGES.tooLong],
      [`from=${addDays(today, -366)}`, 'from', ADMIN_OVERVIEW_MESSAGES.tooLong],
    ];
    for (const [query, path, message] of cases) {
      const response = await get(`/api/admin/overview?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toEqual({ message, errors: [{ path, message }] });
    }
    // 366 days, both ends counted, is the longest period.
    expect((await get('/api/admin/overview?from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
  });
});

describe(`GET /api/admin/overview/health (${TEST_DATABASE_KIND})`, () => {
  it("tells each engine's conversions and time from this server's metrics, the queue and the workers", async () => {
    expect((await convert('Health check.')).statusCode).toBe(200);
    const response = await get('/api/admin/overview/health');
    expect(response.statusCode).toBe(200);
    const health = AdminHealthSchema.parse(response.json());
    expect(health.providers).toEqual([]);
    expect(health.queue).toEqual({ redis: false, waiting: 0, active: 0 });
    expect(health.workers.processes).toBe(1);
    expect(health.workers.threads).toBeGreaterThanOrEqual(1);
    const standard = health.engines.find((engine) => engine.engine === 'standard');
    expect(standard).toMatchObject({ failed: 0 });
    expect(standard?.conversions).toBeGreaterThanOrEqual(1);
    expect(standard?.mean_seconds).toBeGreaterThan(0);
  });

  it('is refused to a user who is not an administrator', async () => {
    const user = await signedInUser(app);
    for (const url of ['/api/admin/overview', '/api/admin/overview/health']) {
      expect((await get(url, user.authorization)).statusCode).toBe(403);
    }
  });
});
