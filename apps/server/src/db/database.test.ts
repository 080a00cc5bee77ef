import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createTestApp, TEST_DATABASE_KIND, testConfig } from '../../test/test-app.js';

const sharedUrl = inject('databaseUrl');

/** Ends, from another connection, every connection to PostgreSQL that names itself `name`. */
async function terminateConnections(name: string): Promise<number> {
  const admin = new pg.Client({ connectionString: sharedUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1',
      [name],
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

describe.runIf(TEST_DATABASE_KIND === 'postgres')('the PostgreSQL connections', () => {
  it('outlive their connections being ended while idle: logged, and the next query opens another', async () => {
    // The app's connections carry a name of this test's, so only they are ended.
    const name = `parla_idle_${randomBytes(4).toString('hex')}`;
    const url = new URL(sharedUrl);
    url.searchParams.set('application_name', name);
    const logged: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => logged.push(chunk.toString()));
    const config = testConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' });
    const app = await createTestApp({ config, logStream });
    const ready = async () => (await app.inject({ method: 'GET', url: '/api/ready' })).json();
    expect((await ready()).database).toBe(true);

    // What a PostgreSQL restart or failover does to a pool's idle connections.
    expect(await terminateConnections(name)).toBeGreaterThan(0);
    await expect
      .poll(() => logged.some((line) => line.includes('broke while idle')), { timeout: 5000 })
      .toBe(true);

    // The process is still here (pg throws an unlistened error), and the database answers.
    expect((await ready()).database).toBe(true);
    expect((await app.inject({ method: 'GET', url: '/api/plan/info' })).statusCode).toBe(200);
  });
});
