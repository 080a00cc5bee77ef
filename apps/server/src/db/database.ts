import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { migrationProvider } from './migrations.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The database of the configuration. On PostgreSQL, a connection that breaks while idle (the
 * server restarted, failed over, or ended it) is reported to `onIdleError` and dropped from
 * the pool, which opens a new one for the next query: without a listener, pg throws it as an
 * uncaught error and the process ends.
 */
export function createDatabase(
  config: DatabaseConfig,
  onIdleError: (error: Error) => void = () => {},
): Db {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.connectionString, max: 10 });
    pool.on('error', onIdleError);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  mkdirSync(path.dirname(config.filename), { recursive: true });
  const database = new SQLite(config.filename);
  // WAL lets readers proceed during a write; busy_timeout makes concurrent writers wait rather
  // than fail with SQLITE_BUSY when several processes (server, CLI) share the file.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${detail}`);
  }
}

/** True when the database answers a trivial query. */
export async function isDatabaseReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
