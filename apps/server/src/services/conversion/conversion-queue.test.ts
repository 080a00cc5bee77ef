import { CONVERSIONS_AT_ONCE } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { voiceSettings } from '../../../test/voice-settings.js';

/**
 * Issue 28, items 1 and 2 over the HTTP API: one caller's share of the speech queue is capped
 * by plan (503 with Retry-After past it, nothing charged), and a rendering stopped past its
 * budget keeps its charge (a timeout is not a free retry).
 */

const app = await createTestApp({ conversionsPerMinute: 1000 });
/** An app whose every rendering runs past its budget (1 ms). */
const strict = await createTestApp({ conversionsPerMinute: 1000, renderTimeoutMs: 1 });

/** Distinct prose of about 260 characters, so that no request is answered from the cache. */
const prose = (label: string) =>
  Array.from(
    { length: 4 },
    (_, i) => `Sentence ${i + 1} of the ${label} request reads a little while aloud.`,
  ).join(' ');

const convert = (text: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/convertor',
    payload: voiceSettings({ text }),
    headers,
    remoteAddress: '203.0.113.9',
  });

describe(`the speech queue's share per caller (${TEST_DATABASE_KIND})`, {
  timeout: 120_000,
}, () => {
  it('answers an anonymous address past its conversions at once with 503 and Retry-After; a user is served meanwhile', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const count = CONVERSIONS_AT_ONCE.FREE + 3;
    const [user, ...visitor] = await Promise.all([
      convert(prose('user'), { authorization }),
      ...Array.from({ length: count }, (_, i) => convert(prose(`visitor ${i}`))),
    ]);
    expect(user?.statusCode).toBe(200);
    const refused = visitor.filter((response) => response.statusCode === 503);
    const served = visitor.filter((response) => response.statusCode === 200);
    expect(refused.length).toBeGreaterThanOrEqual(count - CONVERSIONS_AT_ONCE.FREE);
    expect(served.length + refused.length).toBe(count);
    for (const response of refused) {
      expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(response.json()).toEqual({
        success: false,
        message: `You have ${CONVERSIONS_AT_ONCE.FREE} conversions waiting or being made, as many as your plan makes at once. Please try again when one has finished.`,
        path: null,
        duration: null,
      });
    }
    // Refused before rendering: nothing charged, so the address can convert again now.
    const again = await convert(prose('again'));
    expect(again.statusCode).toBe(200);
  });
});

describe(`a rendering stopped past its budget (${TEST_DATABASE_KIND})`, { timeout: 60_000 }, () => {
  it('answers 400 naming the budget and keeps the charge', async () => {
    const { user, authorization } = await signedInUser(strict, { plan: 'BASIC' });
    const text = prose('over budget');
    const response = await strict.inject({
      method: 'POST',
      url: '/api/convertor',
      payload: voiceSettings({ text }),
      headers: { authorization },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/more than the 0\.001 s of rendering/);
    const row = await strict.db
      .selectFrom('users')
      .select('count_characters')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.count_characters).toBe(user.count_characters - text.length);
  });
});
