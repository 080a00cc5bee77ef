import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { hashPassword } from '../src/lib/password.js';
import { createUserRepository } from '../src/services/accounts/user-repository.js';

/** The database this leg of the suite runs on, for test names and assertions. */
export const TEST_DATABASE_KIND = inject('databaseUrl') ? 'postgres' : 'sqlite';

/**
 * A config for one test file: a fresh DATA_DIR and, on the SQLite leg, a fresh database file;
 * on the PostgreSQL leg the run's throwaway database. Removed when the file's tests end.
 */
export function testConfig(env: NodeJS.ProcessEnv = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-test-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = inject('databaseUrl');
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Test files share the PostgreSQL database but not their storage: only the jobs' own
    // tests render jobs (features/jobs/jobs.test.ts).
    JOB_RUNNER: 'off',
    // Tests never reach the real model hosts (services/voice-installer.test.ts uses a local one).
    DEFAULT_VOICES: 'none',
    // Nor does the console's list of voices to install (GET /api/admin/voices/available, which
    // the fuzz suite calls): a port nothing listens on, answered at once as "no network".
    PIPER_VOICES_URL: 'http://127.0.0.1:9/',
    KOKORO_MODELS_URL: 'http://127.0.0.1:9/',
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    ...env,
  });
}

/**
 * On the PostgreSQL leg, a database of the calling file's own (dropped after its tests), for
 * tests that count rows of the whole database (every job, every administrator); '' on the
 * SQLite leg, where each test app has its own file anyway.
 */
export async function ownDatabaseUrl(label: string): Promise<string> {
  const sharedUrl = inject('databaseUrl');
  if (!sharedUrl) return '';
  const name = `parla_${label}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: sharedUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  afterAll(async () => {
    const client = new pg.Client({ connectionString: sharedUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(sharedUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Builds the app on the test database, closed after the file's tests. */
export async function createTestApp(options: Partial<BuildAppOptions> = {}) {
  const app = await buildApp({
    ...options,
    config: options.config ?? testConfig(),
    webRoot: options.webRoot ?? path.join(tmpdir(), 'parla-no-web-build'),
  });
  afterAll(() => app.close());
  return app;
}

let userCounter = 0;
/** A unique address per call, so test files sharing the PostgreSQL database never collide. */
export function uniqueEmail(label = 'user'): string {
  userCounter += 1;
  return `${label}-${process.pid}-${Date.now()}-${userCounter}@example.com`;
}

/** Creates a validated user directly and answers a bearer token for them. */
export async function signedInUser(
  app: Awaited<ReturnType<typeof createTestApp>>,
  options: {
    plan?: 'FREE' | 'BASIC' | 'PREMIUM' | 'BUSINESS';
    password?: string;
    /** Fill the billing details a purchase needs, as the account page would. */
    billing?: boolean;
  } = {},
) {
  const password = options.password ?? 'correct horse battery';
  const user = await createUserRepository(app.db).create({
    email: uniqueEmail(),
    passwordHash: await hashPassword(password),
    plan: options.plan ?? 'FREE',
    terms: (await app.plans.catalogue())[options.plan ?? 'FREE'],
    emailValidated: true,
  });
  if (options.billing) {
    await app.db
      .updateTable('users')
      .set({
        name: 'Ada Lovelace',
        phone: '+44 20 7946 0000',
        address_country: 'GB',
        address_city: 'London',
        address_line1: '1 Analytical Row',
      })
      .where('id', '=', user.id)
      .execute();
  }
  const { token } = await app.tokens.issue(user.id, user.token_version);
  return { user, password, token, authorization: `Bearer ${token}` };
}
