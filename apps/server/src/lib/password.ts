import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import PQueue from 'p-queue';
import { PASSWORD_HASHING } from './limits.js';

/*
 * scrypt is memory-hard and ships with Node (no native addon). Parameters follow the OWASP
 * password storage cheat sheet (N=2^17, r=8, p=1: 128 MiB per hash). The parameters are stored
 * with the hash so they can be raised later without invalidating existing passwords.
 */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

/** Too many hashes are running or waiting: the caller is answered 503 with Retry-After. */
export class HashingBusyError extends Error {
  override name = 'HashingBusyError';
  readonly statusCode = 503;
  constructor(readonly retryAfterSeconds: number) {
    super(
      `The server is busy checking passwords. Please try again in ${retryAfterSeconds} seconds.`,
    );
  }
}

/**
 * scrypt runs on libuv's thread pool (four threads), which also reads files and resolves
 * names: unbounded, 24 logins at once took every thread and 3 GiB, and pages stalled for
 * seconds (issue 13, item 3). Every hash goes through this queue; docs/benchmarks.md measures
 * the page latency it keeps.
 *
 * Runs work `concurrency` at a time with at most `queued` waiting; beyond that it refuses at
 * once with HashingBusyError, its Retry-After estimated from the last job's duration. Work
 * marked `trusted` (a login from a device that signed in to that address before) goes ahead
 * of the rest and has `reserved` more places: a flood of bad logins cannot turn it away.
 */
export function createHashQueue(limits: { concurrency: number; queued: number; reserved: number }) {
  const queue = new PQueue({ concurrency: limits.concurrency });
  let lastJobMs = 1000;
  return <T>(work: () => Promise<T>, { trusted = false }: { trusted?: boolean } = {}) => {
    if (queue.size >= limits.queued + (trusted ? limits.reserved : 0)) {
      const waiting = queue.size + queue.pending;
      const seconds = (waiting / limits.concurrency) * (lastJobMs / 1000);
      return Promise.reject(new HashingBusyError(Math.max(1, Math.ceil(seconds))));
    }
    return queue.add(
      async () => {
        const started = performance.now();
        try {
          return await work();
        } finally {
          lastJobMs = performance.now() - started;
        }
      },
      { priority: trusted ? 1 : 0 },
    ) as Promise<T>;
  };
}

const hashing = createHashQueue(PASSWORD_HASHING);

function scryptAsync(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  trusted = false,
): Promise<Buffer> {
  return hashing(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
    { trusted },
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** `trusted`: the login of a device known to the address, served ahead of a flood. */
export async function verifyPassword(
  password: string,
  stored: string,
  { trusted = false }: { trusted?: boolean } = {},
): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64url'),
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    },
    trusted,
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
