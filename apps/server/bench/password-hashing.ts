/**
 * Password hashing against page latency (issue 13, item 3). Not a test: it prints numbers.
 *
 * One real server (HTTP on 127.0.0.1, SQLite, a small built web app) answers /pricing in a
 * loop while:
 *   0. nothing else happens (the reference);
 *   1. 24 wrong logins arrive at once, hashed through the server's bounded queue;
 *   2. 24 scrypt hashes run at once outside the queue, as every login did before the queue
 *      (the same parameters, on the same libuv pool the page's file reads use);
 *   3. one free account sends 24 wrong change_password calls at once (rate-limited).
 * For each it prints the page latency p50 / p99 / max and its ratio to the reference, and the
 * logins' answers. Then the time of one hash for a few scrypt costs, to show what the chosen
 * cost costs. Run with `npm run bench` (root) or `npm run bench -w @parla/server`.
 */
import { randomBytes, scrypt } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { hashPassword } from '../src/lib/password.js';
import { createUserRepository } from '../src/services/accounts/user-repository.js';

const CONCURRENT = 24;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-bench-'));
const webRoot = path.join(dataDir, 'web');
mkdirSync(webRoot);
writeFileSync(
  path.join(webRoot, 'index.html'),
  '<!doctype html><html><head><title>Parla</title></head><body><div id="root"></div></body></html>',
);

const app = await buildApp({
  config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEFAULT_VOICES: 'none' }),
  webRoot,
});
const base = await app.listen({ host: '127.0.0.1', port: 0 });

const password = 'correct horse battery';
const user = await createUserRepository(app.db).create({
  email: 'bench@example.com',
  passwordHash: await hashPassword(password),
  plan: 'FREE',
  terms: (await app.plans.catalogue()).FREE,
  emailValidated: true,
});
const { token } = await app.tokens.issue(user.id, user.token_version);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Loads /pricing one request after another until `until` settles; answers the latencies. */
async function pageLatencies(until: Promise<unknown>, minimumMs = 0): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const started = performance.now();
  const latencies: number[] = [];
  while (!done || performance.now() - started < minimumMs) {
    const t = performance.now();
    const response = await fetch(`${base}/pricing`);
    await response.text();
    if (response.status !== 200) throw new Error(`/pricing answered ${response.status}`);
    latencies.push(performance.now() - t);
  }
  return latencies.sort((a, b) => a - b);
}

type Row = { name: string; latencies: number[]; note: string };
const rows: Row[] = [];

function statuses(list: number[]): string {
  const counts = new Map<number, number>();
  for (const status of list) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
}

async function phase(name: string, load: () => Promise<string>, minimumMs = 0) {
  const work = load();
  const latencies = await pageLatencies(work, minimumMs);
  rows.push({ name, latencies, note: await work });
}

// Warm-up: the first requests compile code paths.
await pageLatencies(new Promise((resolve) => setTimeout(resolve, 1000)));

await phase('idle (reference)', async () => {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  return '';
});

await phase(`${CONCURRENT} wrong logins at once (bounded queue)`, async () => {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const response = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${i}@example.com`, password: 'wrong-password' }),
      });
      await response.text();
      return { status: response.status, ms: performance.now() - started };
    }),
  );
  const slowest = Math.max(...answers.map((answer) => answer.ms));
  return `logins: ${statuses(answers.map((a) => a.status))}; last answered after ${(slowest / 1000).toFixed(1)} s`;
});

await phase(`${CONCURRENT} hashes at once, unbounded (as before)`, async () => {
  const started = performance.now();
  await Promise.all(
    Array.from(
      { length: CONCURRENT },
      () =>
        new Promise<void>((resolve, reject) =>
          scrypt(
            'wrong-password',
            randomBytes(16),
            32,
            { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 },
            (error) => (error ? reject(error) : resolve()),
          ),
        ),
    ),
  );
  return `all hashed after ${((performance.now() - started) / 1000).toFixed(1)} s`;
});

await phase(`${CONCURRENT} wrong change_password from one account`, async () => {
  const answers = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      const response = await fetch(`${base}/api/account/change_password`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ old_password: 'wrong-password', new_password: 'new-password-1' }),
      });
      await response.text();
      return response.status;
    }),
  );
  return `answers: ${statuses(answers)}`;
});

await app.close();
rmSync(dataDir, { recursive: true, force: true });

const reference = percentile(rows[0]?.latencies ?? [], 99);
console.info(
  `\n${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores, ` +
    `${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
);
console.info('| while | /pricing p50 | p99 | max | p99 / reference | requests | |');
console.info('|---|---|---|---|---|---|---|');
for (const row of rows) {
  const p99 = percentile(row.latencies, 99);
  console.info(
    `| ${row.name} | ${percentile(row.latencies, 50).toFixed(0)} ms | ${p99.toFixed(0)} ms | ${Math.max(...row.latencies).toFixed(0)} ms | ${(p99 / reference).toFixed(1)}× | ${row.latencies.length} | ${row.note} |`,
  );
}

console.info('\nOne scrypt hash (r=8, p=1), alone on an otherwise idle pool:\n');
console.info('| N | memory | time |');
console.info('|---|---|---|');
for (const exponent of [15, 16, 17]) {
  const times: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    const t = performance.now();
    await new Promise<void>((resolve, reject) =>
      scrypt(
        'password',
        randomBytes(16),
        32,
        { N: 2 ** exponent, r: 8, p: 1, maxmem: 256 * 1024 * 1024 },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.info(
    `| 2^${exponent} | ${(2 ** exponent * 8 * 128) / 2 ** 20} MiB | ${times[1]?.toFixed(0)} ms (median of 3) |`,
  );
}
process.exit(0);
