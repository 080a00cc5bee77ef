import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/*
 * The server suite runs once per database (npm test runs both legs). On the PostgreSQL leg a
 * throwaway database is created for the run and dropped afterwards; tests reach it through
 * PARLA_TEST_DATABASE_URL. On the SQLite leg each test app gets its own temporary file.
 */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(project: TestProject) {
  if (process.env.PARLA_TEST_DB !== 'postgres') {
    project.provide('databaseUrl', '');
    return;
  }
  const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
  const name = `parla_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  project.provide('databaseUrl', url.toString());

  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
