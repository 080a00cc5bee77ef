import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, testConfig } from '../test/test-app.js';

const cliSource = fileURLToPath(new URL('./cli.ts', import.meta.url));
const runMain = fileURLToPath(new URL('../../../scripts/run-main.mjs', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(args: string[]) {
  return spawnSync(
    process.execPath,
    ['--conditions=@parla/source', '--import', 'tsx', runMain, cliSource, ...args],
    {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DEFAULT_VOICES: 'none',
        ...(inject('databaseUrl') && { DATABASE_URL: inject('databaseUrl') }),
      },
      encoding: 'utf8',
    },
  );
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
