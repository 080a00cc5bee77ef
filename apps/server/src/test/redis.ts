import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll } from 'vitest';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function reachable(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the test Redis answers (CI requires it; elsewhere the caller's tests are skipped with
 * a loud warning), and a key prefix of this test file's own, whose keys are removed at the end.
 */
export async function testRedis(what: string): Promise<{ reachable: boolean; prefix: string }> {
  const ok = await reachable();
  if (!ok) {
    if (process.env.CI === 'true')
      throw new Error(`Redis at ${TEST_REDIS_URL} cannot be reached; CI requires it.`);
    console.warn(`\n!!!!! SKIPPED: ${what}: Redis at ${TEST_REDIS_URL} cannot be reached. !!!!!\n`);
  }
  const prefix = `parla-test-${randomUUID()}`;
  afterAll(async () => {
    if (!ok) return;
    const redis = new Redis(TEST_REDIS_URL);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    redis.disconnect();
  });
  return { reachable: ok, prefix };
}
