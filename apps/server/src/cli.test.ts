import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FileListSchema, FileSchema, fileMediaQuery } from '@parla/contract';
import * as tar from 'tar';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { multipart } from '../test/multipart.js';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../test/test-app.js';
import { voiceSettings } from '../test/voice-settings.js';
import { DEFAULT_CONTENT_DIR } from './services/content/loader.js';

const cliSource = fileURLToPath(new URL('./cli.ts', import.meta.url));
const runMain = fileURLToPath(new URL('../../../scripts/run-main.mjs', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const nodeArgs = ['--conditions=@parla/source', '--import', 'tsx', runMain, cliSource];
/** The command's environment: this file's DATA_DIR and the leg's database, changed as given. */
const cliEnv = (change: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  DEFAULT_VOICES: 'none',
  ...(inject('databaseUrl') && { DATABASE_URL: inject('databaseUrl') }),
  ...change,
});

function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [...nodeArgs, ...args], {
    env: cliEnv(env),
    encoding: 'utf8',
  });
}

/** The command in the background: the test's own server keeps answering meanwhile. */
function cliInBackground(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, [...nodeArgs, ...args], { env: cliEnv(env) });
}

// Each test starts Node with tsx once or twice: seconds each on a busy two-core machine.
describe('the parla command (from its source; commands.test.ts runs it through npx)', {
  timeout: 60_000,
}, () => {
  it('creates a validated user on a plan and prints a token the API accepts', async () => {
    const email = `cli-${Date.now()}@example.com`;
    const result = cli([
      'create-user',
      '--email',
      email,
      '--password',
      'secret-123',
      '--plan',
      'basic',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const { token, expire_date } = JSON.parse(result.stdout) as {
      token: string;
      expire_date: string;
    };
    expect(Date.parse(expire_date)).toBeGreaterThan(Date.now());

    // The same DATA_DIR, hence the same database and generated secret, as the server's.
    const app = await createTestApp({ config: testConfig({ DATA_DIR: dataDir }) });
    const profile = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ user: { email }, plan: { type: 'BASIC' } });
  });

  it('writes the published content back in the layout of content/ (content export)', () => {
    // The database the previous test's server seeded from content/ at its start.
    const out = mkdtempSync(path.join(tmpdir(), 'parla-cli-export-'));
    afterAll(() => rmSync(out, { recursive: true, force: true }));
    const result = cli(['content', 'export', out]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\d+ pages and articles and \d+ images written to /);
    for (const file of ['languages.yaml', 'pages/fr/pricing.md', 'blog/de/was-ist-ssml.md']) {
      expect(readFileSync(path.join(out, file), 'utf8'), file).toBe(
        readFileSync(path.join(DEFAULT_CONTENT_DIR, file), 'utf8'),
      );
    }
    expect(existsSync(path.join(out, 'images', 'what-is-ssml.svg'))).toBe(true);
    const usage = cli(['content', 'import', out]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('content needs export and a DIR.');
  });

  it('refuses a missing option or an unknown plan with usage, exit code 2', () => {
    const missing = cli(['create-user', '--email', 'x@example.com']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('create-user needs --email, --password and a valid --plan.');
    const unknownPlan = cli([
      'create-user',
      '--email',
      'x@example.com',
      '--password',
      'secret-123',
      '--plan',
      'GOLD',
    ]);
    expect(unknownPlan.status).toBe(2);
  });

  it('refuses an unknown command or option with usage, exit code 2', () => {
    const command = cli(['migrat']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('Unknown command: migrat');
    const option = cli(['migrate', '--force']);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/Unknown option '--force'[\s\S]*Usage: parla <command>/);
  });
});

describe('parla admin grant|revoke EMAIL (decision 044)', { timeout: 120_000 }, () => {
  it('makes the first administrator, never revokes the last one, and says what it did', async () => {
    // A database of its own on PostgreSQL: the last-administrator rule counts every one.
    const databaseUrl = await ownDatabaseUrl('cli_admin');
    const adminDir = mkdtempSync(path.join(tmpdir(), 'parla-cli-admin-'));
    afterAll(() => rmSync(adminDir, { recursive: true, force: true }));
    const env = { DATA_DIR: adminDir, ...(databaseUrl && { DATABASE_URL: databaseUrl }) };
    const email = `cli-admin-${Date.now()}@example.com`;
    const created = cli(['create-user', '--email', email, '--password', 'secret-123'], env);
    expect(created.status).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };

    const granted = cli(['admin', 'grant', email.toUpperCase()], env);
    expect(granted.stderr).toBe('');
    expect(granted.status).toBe(0);
    expect(granted.stdout).toBe(`${email} is now an administrator.\n`);
    expect(cli(['admin', 'grant', email], env).stdout).toBe(
      `${email} was already an administrator.\n`,
    );

    const app = await createTestApp({ config: testConfig(env) });
    const audit = await app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(audit.statusCode).toBe(200);
    expect(audit.json().items[0]).toMatchObject({
      actor_id: null,
      action: 'user.role',
      before: { role: 'USER' },
      after: { role: 'ADMIN' },
    });

    const last = cli(['admin', 'revoke', email], env);
    expect(last.status).toBe(1);
    expect(last.stderr).toBe(`${email} is the last administrator: grant another account first.\n`);
    const other = `cli-admin-2-${Date.now()}@example.com`;
    expect(cli(['create-user', '--email', other, '--password', 'secret-123'], env).status).toBe(0);
    expect(cli(['admin', 'grant', other], env).status).toBe(0);
    const revoked = cli(['admin', 'revoke', email], env);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toBe(`${email} is now a user.\n`);
    const refused = await app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.statusCode).toBe(403);

    const unknown = cli(['admin', 'grant', 'nobody@example.com'], env);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('There is no account with the address nobody@example.com');
    expect(cli(['admin', 'promote', email], env).status).toBe(2);
    expect(cli(['admin', 'grant'], env).status).toBe(2);
  });
});

describe.runIf(TEST_DATABASE_KIND === 'sqlite')(
  'parla backup and restore (SQLite)',
  {
    timeout: 180_000,
  },
  () => {
    it('restores a backup taken during conversions: every saved file, with its audio', async () => {
      const config = testConfig();
      const app = await createTestApp({ config, conversionsPerMinute: 10_000 });
      const { authorization } = await signedInUser(app, { plan: 'BASIC' });
      const settings = voiceSettings({ text: '<speak>Kept safe by a backup.</speak>' });
      const query = new URLSearchParams(fileMediaQuery(settings)).toString();
      /** Converts a text and saves its audio, as the convertor's Save button does. */
      async function convertAndSave() {
        const converted = await app.inject({
          method: 'POST',
          url: '/api/convertor',
          headers: { authorization },
          payload: settings,
        });
        expect(converted.statusCode).toBe(200);
        const audio = (await app.inject({ method: 'GET', url: converted.json().path })).rawPayload;
        const body = multipart('media', audio, 'speech.wav', 'audio/wav');
        const saved = await app.inject({
          method: 'POST',
          url: `/api/file/media?${query}`,
          headers: { authorization, 'x-requested-with': 'parla', ...body.headers },
          payload: body.payload,
        });
        expect(saved.statusCode).toBe(200);
        return { id: FileSchema.parse(saved.json())._id, audio };
      }

      const saved = [await convertAndSave(), await convertAndSave()];
      const before = saved.map((file) => file.id);
      const archive = path.join(mkdtempSync(path.join(tmpdir(), 'parla-backups-')), 'parla.tar');
      // Conversions and saves go on, one after another, for as long as the backup runs.
      let backingUp = true;
      const backup = cliInBackground(['backup', archive], { DATA_DIR: config.dataDir }).finally(
        () => {
          backingUp = false;
        },
      );
      while (backingUp) saved.push(await convertAndSave());
      expect((await backup).stdout).toContain(`Backup written to ${archive}.`);
      expect(saved.length).toBeGreaterThan(before.length);

      const restoredDir = mkdtempSync(path.join(tmpdir(), 'parla-restored-'));
      afterAll(() => rmSync(restoredDir, { recursive: true, force: true }));
      const restore = cli(['restore', archive], { DATA_DIR: restoredDir });
      expect(restore.stderr).toBe('');
      expect(restore.status).toBe(0);
      // The restored DATA_DIR has the secret too: the same login token works there.
      const restored = await createTestApp({ config: testConfig({ DATA_DIR: restoredDir }) });
      const list = await restored.inject({
        method: 'GET',
        url: '/api/file',
        headers: { authorization },
      });
      expect(list.statusCode).toBe(200);
      const ids = FileListSchema.parse(list.json()).map((file) => file._id);
      expect(ids).toEqual(expect.arrayContaining(before));
      // Every file the restored database lists has its audio, byte for byte.
      for (const id of ids) {
        const media = await restored.inject({
          method: 'GET',
          url: `/api/file/media/${id}`,
          headers: { authorization },
        });
        expect(media.statusCode, id).toBe(200);
        expect(
          media.rawPayload.equals(saved.find((file) => file.id === id)?.audio ?? Buffer.alloc(0)),
        ).toBe(true);
      }

      // A restore never overwrites a database in use.
      const again = cli(['restore', archive], { DATA_DIR: config.dataDir });
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('exists: restore into a new DATA_DIR');
    });

    it('says there is nothing to back up in a DATA_DIR that has not started', () => {
      const empty = mkdtempSync(path.join(tmpdir(), 'parla-unstarted-'));
      afterAll(() => rmSync(empty, { recursive: true, force: true }));
      const result = cli(['backup', path.join(empty, 'parla.tar')], { DATA_DIR: empty });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        `There is no database at ${path.join(empty, 'parla.sqlite')} to back up: DATA_DIR names an installation that has not started yet.`,
      );
      expect(existsSync(path.join(empty, 'parla.tar'))).toBe(false);
    });
  },
);

describe.runIf(TEST_DATABASE_KIND === 'postgres')(
  'parla backup (PostgreSQL)',
  {
    timeout: 60_000,
  },
  () => {
    it('copies DATA_DIR and names the commands that back up the database', async () => {
      const archive = path.join(dataDir, 'parla.tar');
      const result = cli(['backup', archive]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(
        'pg_dump --format=custom --file=parla.pgdump "$DATABASE_URL"',
      );
      expect(result.stdout).toContain(
        'pg_restore --no-owner --dbname="$DATABASE_URL" parla.pgdump',
      );
      const entries: string[] = [];
      await tar.list({ file: archive, onReadEntry: (entry) => entries.push(entry.path) });
      expect(entries).toContain('data/secrets.json');
      expect(entries).not.toContain('database.sqlite');
      // Neither the archive being written nor its work folder (both in DATA_DIR here) is in it.
      expect(entries.filter((entry) => /parla\.tar|\.parla-backup-/.test(entry))).toEqual([]);
    });
  },
);
