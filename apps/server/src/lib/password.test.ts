import { describe, expect, it } from 'vitest';
import { createHashQueue, HashingBusyError, hashPassword, verifyPassword } from './password.js';

/** A job that finishes when the test says so, and reports how many jobs run at once. */
function jobs() {
  let running = 0;
  let most = 0;
  const releases: Array<() => void> = [];
  const job = () => {
    running += 1;
    most = Math.max(most, running);
    return new Promise<number>((resolve) => {
      releases.push(() => {
        running -= 1;
        resolve(releases.length);
      });
    });
  };
  const releaseAll = async () => {
    while (releases.length > 0 || running > 0) {
      for (const release of releases.splice(0)) release();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { job, releaseAll, most: () => most };
}

describe('the password-hashing queue', () => {
  it('runs at most `concurrency` jobs, queues `queued`, and refuses the next at once', async () => {
    const run = createHashQueue({ concurrency: 2, queued: 3, reserved: 0 });
    const { job, releaseAll, most } = jobs();
    const accepted = Array.from({ length: 5 }, () => run(job));
    const refused = run(job);
    const error = await refused.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof HashingBusyError)) throw new Error('expected HashingBusyError');
    expect(error.statusCode).toBe(503);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await releaseAll();
    await Promise.all(accepted);
    expect(most()).toBe(2);
    // Room again once the queue has drained.
    const again = run(job);
    await releaseAll();
    await expect(again).resolves.toBeTypeOf('number');
  });

  it('serves trusted work ahead of a full queue, in places of its own', async () => {
    // Issue 28 item 7: 60 bad logins at once turned everyone away, their owners too.
    const run = createHashQueue({ concurrency: 1, queued: 2, reserved: 1 });
    const order: string[] = [];
    const gates: Array<() => void> = [];
    const job = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        gates.push(resolve);
      });
    const flood = ['bad-1', 'bad-2', 'bad-3'].map((name) => run(job(name)));
    const refused = await run(job('bad-4')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HashingBusyError);
    const trusted = run(job('trusted'), { trusted: true });
    // A second trusted job finds the reserve taken.
    expect(await run(job('trusted-2'), { trusted: true }).catch((e: unknown) => e)).toBeInstanceOf(
      HashingBusyError,
    );
    while (order.length < 4) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    gates.shift()?.();
    await Promise.all([...flood, trusted]);
    expect(order).toEqual(['bad-1', 'trusted', 'bad-2', 'bad-3']);
  });

  it('hashes and verifies through the queue', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery', stored)).toBe(false);
  });
});
