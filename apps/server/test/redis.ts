import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

/** The Redis on 127.0.0.1 the integration tests use (CI must have it). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether Redis answers; a test file skips its Redis tests when not (CI fails instead). */
export async function redisReachable(what: string): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  let reachable = false;
  try {
    await probe.connect();
    reachable = (await probe.ping()) === 'PONG';
  } catch {
    reachable = false;
  } finally {
    probe.disconnect();
  }
  if (!reachable) {
    if (process.env.CI === 'true')
      throw new Error(`Redis at ${TEST_REDIS_URL} cannot be reached; CI requires it.`);
    console.warn(`\n!!!!! SKIPPED: ${what}: Redis at ${TEST_REDIS_URL} cannot be reached. !!!!!\n`);
  }
  return reachable;
}

/** Removes every key of a test run's prefix. */
export async function removeRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}

/**
 * For a test file: whether Redis answers (see redisReachable) and a key prefix of the file's
 * own, whose keys are removed when the file's tests end.
 */
export async function testRedis(what: string): Promise<{ reachable: boolean; prefix: string }> {
  const reachable = await redisReachable(what);
  const prefix = `parla-test-${randomUUID()}`;
  afterAll(async () => {
    if (reachable) await removeRedisKeys(prefix);
  });
  return { reachable, prefix };
}
