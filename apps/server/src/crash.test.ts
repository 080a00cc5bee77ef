import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { listeningUrl, startServer } from '../test/processes.js';
import { TEST_DATABASE_KIND } from '../test/test-app.js';
import { voiceSettings } from '../test/voice-settings.js';
import { loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { TokenService } from './lib/tokens.js';
import { createUserRepository } from './services/accounts/user-repository.js';
import { PLAN_DEFAULTS } from './services/plans/plan-catalogue.js';

/*
 * Issue 28 item 8, for real: a server killed with SIGKILL in the middle of a conversion leaves
 * its characters charged; the next server refunds them once the dead one's lease ran out.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const databaseUrl = inject('databaseUrl');
const env = {
  DATA_DIR: dataDir,
  JWT_SECRET: 'crash-test-secret-of-at-least-32-characters',
  ...(databaseUrl && { DATABASE_URL: databaseUrl }),
};
const config = loadConfig(env);
const db = createDatabase(config.database);
afterAll(() => db.destroy());

describe(`a server killed mid-conversion (${TEST_DATABASE_KIND})`, () => {
  it('leaves an intent that the next server refunds', async () => {
    await migrateToLatest(db);
    const user = await createUserRepository(db).create({
      email: `crash-${process.pid}-${Date.now()}@example.com`,
      passwordHash: 'scrypt$unused',
      plan: 'BUSINESS',
      terms: PLAN_DEFAULTS.BUSINESS,
      emailValidated: true,
    });
    const { token } = await new TokenService(env.JWT_SECRET).issue(user.id, user.token_version);
    const charactersLeft = async () =>
      (
        await db
          .selectFrom('users')
          .select('count_characters')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).count_characters;
    const before = await charactersLeft();

    const first = startServer(env);
    const url = await listeningUrl(first, 120_000);
    const text = Array.from({ length: 150 }, (_, i) => `Sentence ${i + 1} is still rendering.`)
      .join(' ')
      .slice(0, 5000);
    const converting = fetch(`${url}/api/convertor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(voiceSettings({ text })),
    }).catch(() => undefined);
    const pending = () =>
      db
        .selectFrom('conversion_intents')
        .select('id')
        .where('user_id', '=', user.id)
        .where('refunded_at', 'is', null)
        .executeTakeFirst();
    for (let at = Date.now(); !(await pending()); ) {
      if (Date.now() - at > 60_000) throw new Error(`no intent:\n${first.output.text}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    await converting;
    expect(await charactersLeft()).toBe(before - text.length);

    const second = startServer(env);
    try {
      await listeningUrl(second, 120_000);
      // Refunded once the dead server's lease (30 s) ran out: at start, or at the next round.
      const deadline = Date.now() + 120_000;
      while ((await charactersLeft()) !== before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(await charactersLeft()).toBe(before);
      expect(second.output.text).toContain('conversions of a stopped server refunded');
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 400_000);
});
