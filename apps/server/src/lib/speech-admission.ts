import { randomUUID } from 'node:crypto';
import {
  callerFullError,
  type PoolCaller,
  queueFullError,
  WORK_SECONDS_PER_CHARACTER,
} from '@parla/speech';
import type { Redis } from 'ioredis';

/**
 * The speech queue's fair share when it runs through Redis (docs/decisions/042-fair-share-of-
 * the-redis-speech-queue.md): what the worker-thread pool does for one process (decision 034),
 * across every server and worker. A conversion is admitted before it is queued:
 *
 * - its caller may have `maxRequests` conversions waiting or rendering in the whole cluster;
 * - the cluster may hold `maxQueuedSeconds` of estimated work a worker thread (the workers
 *   say how many threads they have, every few seconds);
 * - past either it is refused at once with `busy` (503 with Retry-After), nothing queued;
 * - admitted, it is queued with a BullMQ priority of 1 + the conversions its caller already
 *   has, so that each caller's first conversion goes before anyone's second: one caller's burst
 *   no longer holds back another's "Hello".
 *
 * Each entry expires on its own (a server killed while waiting leaves nothing behind for long).
 */
export interface SpeechAdmission {
  /** A conversion's place, or the `busy` SpeechError. `release` when it is finished. */
  admit(caller: PoolCaller | undefined, characters: number): Promise<Admitted>;
  /** A worker's threads, kept while it lives (every `CAPACITY_REFRESH_MS`). */
  offer(threads: number): { stop(): Promise<void> };
  /** The workers that offered their threads lately, and those threads (the console's). */
  capacity(): Promise<{ processes: number; threads: number }>;
}

export interface Admitted {
  /** BullMQ's priority: 1 for a caller's first conversion, 2 for its second… */
  priority: number;
  release(): Promise<void>;
}

/** How often a worker says it is there, and how long the saying holds. */
export const CAPACITY_REFRESH_MS = 10_000;
const CAPACITY_TTL_MS = 3 * CAPACITY_REFRESH_MS;

/**
 * KEYS: the caller's set (or a key never written for work without a caller), the backlog,
 * the capacity. ARGV: now, the entry's expiry, its member, the caller's cap (0: no caller),
 * its work in milliseconds, the most work a thread may have in milliseconds.
 * Answers {priority} or {-1, seconds per thread} (queue full) or {-2, the caller's count,
 * seconds per thread} (caller full).
 */
const ADMIT = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local threads = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  threads = threads + tonumber(string.match(member, ':(%d+)$'))
end
if threads < 1 then threads = 1 end
local backlog = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  backlog = backlog + tonumber(string.match(member, ':(%d+)$'))
end
local perThread = backlog / threads
local cap = tonumber(ARGV[4])
local priority = 1
if cap > 0 then
  if perThread > tonumber(ARGV[6]) then return {-1, math.ceil(perThread / 1000)} end
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local mine = redis.call('ZCARD', KEYS[1])
  if mine >= cap then return {-2, mine, math.ceil(perThread / 1000)} end
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  priority = mine + 1
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3] .. ':' .. ARGV[5])
return {priority}
`;

export function createSpeechAdmission(
  connection: Redis,
  prefix: string,
  {
    maxQueuedSeconds = 30,
    holdMs,
  }: {
    maxQueuedSeconds?: number;
    /** How long an entry holds at most: the queue's wait plus a rendering's timeout. */
    holdMs: number;
  },
): SpeechAdmission {
  const keys = {
    caller: (key: string) => `${prefix}:speech-callers:${key}`,
    backlog: `${prefix}:speech-backlog`,
    capacity: `${prefix}:speech-capacity`,
  };
  return {
    async admit(caller, characters) {
      const member = randomUUID();
      const work = Math.ceil(characters * WORK_SECONDS_PER_CHARACTER * 1000);
      const callerKey = keys.caller(caller?.key ?? '-');
      const answer = (await connection.eval(
        ADMIT,
        3,
        callerKey,
        keys.backlog,
        keys.capacity,
        Date.now(),
        Date.now() + holdMs,
        member,
        caller ? caller.maxRequests : 0,
        work,
        maxQueuedSeconds * 1000,
      )) as number[];
      const [first = 0, second = 0, third = 0] = answer;
      if (first === -1) throw queueFullError(second, maxQueuedSeconds);
      if (first === -2) throw callerFullError(second, third);
      return {
        priority: first,
        async release() {
          await connection
            .multi()
            .zrem(callerKey, member)
            .zrem(keys.backlog, `${member}:${work}`)
            .exec();
        },
      };
    },
    async capacity() {
      const members = await connection.zrangebyscore(keys.capacity, Date.now(), '+inf');
      const threads = members.reduce((sum, member) => sum + Number(member.split(':').pop()), 0);
      return { processes: members.length, threads };
    },
    offer(threads) {
      const member = `${randomUUID()}:${threads}`;
      const say = () =>
        connection.zadd(keys.capacity, Date.now() + CAPACITY_TTL_MS, member).catch(() => 0);
      void say();
      const timer = setInterval(say, CAPACITY_REFRESH_MS);
      timer.unref();
      return {
        async stop() {
          clearInterval(timer);
          await connection.zrem(keys.capacity, member).catch(() => 0);
        },
      };
    },
  };
}
