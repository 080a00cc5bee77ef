import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisReachable, removeRedisKeys, TEST_REDIS_URL } from '../../test/redis.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../test/test-app.js';
import {
  CONVERSIONS_PER_MINUTE,
  PASSWORD_ROUTE_LIMITS,
  PAYMENTS_PER_MINUTE,
} from '../lib/limits.js';

/*
 * Issue 13, item 2 and issue 28: limits are keyed on who calls (verified user, else the
 * address, an IPv6 one by its /64), per plan, and shared through Redis by every server of an installation. Requests carry
 * invalid bodies: the limit counts attempts (it runs before the body is read) and no speech is
 * rendered, no password hashed.
 */
const app = await createTestApp();

type App = typeof app;
let address = 0;
/** A fresh client address per test, so tests do not share a counter. */
function nextIp(): string {
  address += 1;
  return `198.51.100.${address}`;
}

async function convertStatuses(
  target: App,
  count: number,
  request: (i: number) => { headers?: Record<string, string>; remoteAddress: string },
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const { headers = {}, remoteAddress } = request(i);
    const response = await target.inject({
      method: 'POST',
      url: '/api/convertor',
      headers,
      remoteAddress,
      payload: {},
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

const free = CONVERSIONS_PER_MINUTE.FREE;

describe(`limits keyed on the caller (${TEST_DATABASE_KIND})`, () => {
  it('counts junk Authorization headers as their IP, not as new callers', async () => {
    const ip = nextIp();
    const junk = ['x1', 'x2', 'Bearer nope', 'Bearer  ', '  Bearer x'];
    const statuses = await convertStatuses(app, CONVERSIONS_PER_MINUTE.anonymous + 1, (i) => ({
      headers: { authorization: `${junk[i % junk.length]}${i}` },
      remoteAddress: ip,
    }));
    // A bearer value that is no credential of ours is refused (401, issue 27), the others are
    // visitors with an empty body (400); all count against the one address.
    expect(statuses.slice(0, -1).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
    // Another address is another caller.
    expect(await convertStatuses(app, 1, () => ({ remoteAddress: nextIp() }))).toEqual([400]);
  });

  it("counts a user's token with extra spaces and from any address as the same user", async () => {
    const { token } = await signedInUser(app, { plan: 'FREE' });
    const statuses = await convertStatuses(app, free + 1, (i) => ({
      headers: { authorization: i % 2 ? `Bearer ${token}` : `Bearer    ${token}   ` },
      remoteAddress: nextIp(),
    }));
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('gives each plan its own number: a BUSINESS user converts more than 30 a minute', async () => {
    expect(CONVERSIONS_PER_MINUTE.BUSINESS).toBeGreaterThan(30);
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const ip = nextIp();
    const statuses = await convertStatuses(app, CONVERSIONS_PER_MINUTE.BUSINESS + 1, () => ({
      headers: { authorization },
      remoteAddress: ip,
    }));
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts anonymous callers by address: visitor cookies do not multiply it', async () => {
    // Issue 28: five fresh visitor cookies from one address gave 150 conversions a minute.
    const ip = nextIp();
    const visitor = (id: string) => ({ cookie: `parla_visitor=${app.signCookie(id)}` });
    const statuses = await convertStatuses(app, free + 1, (i) => ({
      headers: visitor(`visitor-${ip}-${i}`),
      remoteAddress: ip,
    }));
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Forged cookies are no different.
    expect(
      await convertStatuses(app, 1, () => ({
        headers: { cookie: 'parla_visitor=forged' },
        remoteAddress: ip,
      })),
    ).toEqual([429]);
    // Another address is another caller.
    expect(await convertStatuses(app, 1, () => ({ remoteAddress: nextIp() }))).toEqual([400]);
  });

  it('counts an IPv6 caller by its /64', async () => {
    const statuses = await convertStatuses(app, free + 1, (i) => ({
      // Every request from another address of the same /64 (a privacy address, a script).
      remoteAddress: `2001:db8:28:6::${(i + 1).toString(16)}`,
    }));
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await convertStatuses(app, 1, () => ({ remoteAddress: '2001:db8:28:7::1' }))).toEqual([
      400,
    ]);
  });

  it('limits payments per user, whatever address or header spelling they come with', async () => {
    const { token } = await signedInUser(app, { billing: true });
    const statuses: number[] = [];
    for (let i = 0; i <= PAYMENTS_PER_MINUTE; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/plan/payment',
        headers: { authorization: `Bearer ${' '.repeat(i)}${token}` },
        remoteAddress: nextIp(),
        payload: {},
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits change_password per user and reset_password per caller', async () => {
    const { authorization } = await signedInUser(app);
    const changes: number[] = [];
    for (let i = 0; i <= PASSWORD_ROUTE_LIMITS.change.max; i += 1) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/account/change_password',
        headers: { authorization },
        remoteAddress: nextIp(),
        payload: {},
      });
      changes.push(response.statusCode);
    }
    expect(changes.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(changes.at(-1)).toBe(429);

    const ip = nextIp();
    const resets: number[] = [];
    for (let i = 0; i <= PASSWORD_ROUTE_LIMITS.reset.max; i += 1) {
      const response = await app.inject({
        method: 'PUT',
        url: `/api/auth/reset_password/${'k'.repeat(43)}`,
        remoteAddress: ip,
        payload: {},
      });
      resets.push(response.statusCode);
    }
    expect(resets.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(resets.at(-1)).toBe(429);
  });
});

const reachable = await redisReachable('the shared-limit tests');
const prefix = `parla-test-${randomUUID()}`;
afterAll(async () => {
  if (reachable) await removeRedisKeys(prefix);
});

describe.runIf(reachable)(`limits shared through Redis (${TEST_DATABASE_KIND})`, async () => {
  // Two servers of one installation: their own processes' state, one Redis.
  const servers = await Promise.all(
    [1, 2].map(() =>
      createTestApp({
        config: testConfig({ REDIS_URL: TEST_REDIS_URL }),
        redisPrefix: prefix,
        abuseLimits: { perIp: 100, perAddress: 3, timeWindowMs: 60_000 },
      }),
    ),
  );
  const [a, b] = servers as [App, App];

  it('enforces one conversion limit across two servers', async () => {
    const ip = nextIp();
    const half = Math.floor(CONVERSIONS_PER_MINUTE.anonymous / 2);
    const onA = await convertStatuses(a, half, () => ({ remoteAddress: ip }));
    const onB = await convertStatuses(b, CONVERSIONS_PER_MINUTE.anonymous - half, () => ({
      remoteAddress: ip,
    }));
    expect([...onA, ...onB].every((status) => status === 400)).toBe(true);
    expect(await convertStatuses(a, 1, () => ({ remoteAddress: ip }))).toEqual([429]);
    expect(await convertStatuses(b, 1, () => ({ remoteAddress: ip }))).toEqual([429]);
  });

  it('enforces the per-address abuse limit across two servers', async () => {
    const email = `shared-${randomUUID()}@example.com`;
    const statuses: number[] = [];
    for (const server of [a, b, a, b]) {
      const response = await server.inject({
        method: 'POST',
        url: '/api/auth/forgotten_password',
        remoteAddress: nextIp(),
        payload: { email },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
