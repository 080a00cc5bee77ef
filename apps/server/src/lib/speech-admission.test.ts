import { SpeechError } from '@parla/speech';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL, testRedis } from '../../test/redis.js';
import { createSpeechAdmission } from './speech-admission.js';

/*
 * The cluster's bound on queued speech (decision 042), on a real Redis: the work a worker
 * thread has ahead is the backlog of every server over the threads the workers offer.
 */
const { reachable, prefix } = await testRedis('the speech admission tests');
const connection = new Redis(TEST_REDIS_URL);
afterAll(() => connection.disconnect());

const caller = (key: string) => ({ key, maxRequests: 5 });

describe.runIf(reachable)('admission to the Redis speech queue', () => {
  it('refuses a caller when the cluster holds more work a thread than it may, until work ends', async () => {
    // 400 characters are 0.8 s of estimated work; a thread may have 1 s ahead.
    const admission = createSpeechAdmission(connection, `${prefix}-backlog`, {
      maxQueuedSeconds: 1,
      holdMs: 60_000,
    });
    const threads = admission.offer(1);
    try {
      const a = await admission.admit(caller('a'), 400);
      const b = await admission.admit(caller('b'), 400);
      expect([a.priority, b.priority]).toEqual([1, 1]);
      const refused = await admission.admit(caller('c'), 400).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SpeechError);
      expect(refused).toMatchObject({
        code: 'busy',
        message: 'The speech service is busy right now. Please try again in a few seconds.',
        retryAfterSeconds: 1,
      });
      // Work without a caller (a job's part) waits its turn: never refused.
      const part = await admission.admit(undefined, 400);
      await Promise.all([a.release(), b.release(), part.release()]);
      const c = await admission.admit(caller('c'), 400);
      await c.release();
    } finally {
      await threads.stop();
    }
  });

  it('counts the threads of every worker, and forgets a worker that stopped saying it is there', async () => {
    const admission = createSpeechAdmission(connection, `${prefix}-threads`, {
      maxQueuedSeconds: 1,
      holdMs: 60_000,
    });
    const one = admission.offer(1);
    const two = admission.offer(2);
    // 3 threads: 2.4 s of work ahead is 0.8 s a thread, under the bound: a fourth is admitted.
    const held = [];
    for (const key of ['a', 'b', 'c', 'd']) held.push(await admission.admit(caller(key), 400));
    // One thread left: 3.2 s a thread.
    await two.stop();
    await expect(admission.admit(caller('g'), 400)).rejects.toMatchObject({ code: 'busy' });
    await one.stop();
    await Promise.all(held.map((entry) => entry.release()));
  });

  it("ranks a caller's conversions, caps them, and lets an entry a dead server left expire", async () => {
    const admission = createSpeechAdmission(connection, `${prefix}-expiry`, { holdMs: 300 });
    const busy = { key: 'user:busy', maxRequests: 2 };
    const first = await admission.admit(busy, 10);
    const second = await admission.admit(busy, 10);
    expect([first.priority, second.priority]).toEqual([1, 2]);
    const third = await admission.admit(busy, 10).catch((error: unknown) => error);
    expect(third).toMatchObject({
      code: 'busy',
      message:
        'You have 2 conversions waiting or being made, as many as your plan makes at once. Please try again when one has finished.',
    });
    // Never released (its server was killed): after its hold, it no longer counts.
    await new Promise((resolve) => setTimeout(resolve, 350));
    const later = await admission.admit(busy, 10);
    expect(later.priority).toBe(1);
    await later.release();
  });
});
