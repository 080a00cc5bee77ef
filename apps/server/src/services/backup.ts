/**
 * Backups of what an installation keeps on its own disk (docs/operations.md, "Backup and
 * restore"). One uncompressed tar file (audio is compressed already):
 *
 * - `database.sqlite`: a consistent copy of the SQLite database, taken with SQLite's online
 *   backup while servers keep using it (a copy of the file itself can be torn mid-write);
 * - `data/`: the files of DATA_DIR, read after that copy, so every file the copy names is in
 *   the archive. Left out: the live database, files being written (`*.part`, renamed into
 *   place when complete) and `cache/` (rendered again on demand).
 *
 * PostgreSQL and S3-compatible stores are backed up with their own tools: the answer says
 * which commands, and the archive then holds only what is in DATA_DIR.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import * as tar from 'tar';
import type { Config, StorageConfig } from '../config.js';

const DATABASE_ENTRY = 'database.sqlite';
const DATA_ENTRY = 'data';

/** Commands to back up a PostgreSQL database and restore it (the URL stays in the variable). */
export const POSTGRES_BACKUP_NOTE = `The database is PostgreSQL: back it up with its own tools, while the servers run:
  pg_dump --format=custom --file=parla.pgdump "$DATABASE_URL"
and restore it into an empty database, servers stopped:
  pg_restore --no-owner --dbname="$DATABASE_URL" parla.pgdump`;

function s3Note(storage: Extract<StorageConfig, { kind: 's3' }>): string {
  const endpoint = storage.endpoint ? ` --endpoint-url ${storage.endpoint}` : '';
  return `Audio and saved files are in the bucket ${storage.bucket}: copy them with the store's own tools (or turn on its versioning):
  aws s3 sync s3://${storage.bucket} ./parla-files${endpoint}
and put them back with:
  aws s3 sync ./parla-files s3://${storage.bucket}${endpoint}`;
}

/** What the operator must back up with other tools, one note each. */
function notesFor(config: Config): string[] {
  return [
    ...(config.database.kind === 'postgres' ? [POSTGRES_BACKUP_NOTE] : []),
    ...(config.storage.kind === 's3' ? [s3Note(config.storage)] : []),
  ];
}

/** Paths of DATA_DIR (relative) that a backup leaves out. */
function leftOut(config: Config, archive: string): (relative: string) => boolean {
  const database = config.database;
  const live =
    database.kind === 'sqlite'
      ? ['', '-wal', '-shm', '-journal'].map((suffix) => `${database.filename}${suffix}`)
      : [];
  const skipped = new Set([...live, archive].map((file) => path.resolve(file)));
  return (relative) => {
    const absolute = path.resolve(config.dataDir, relative);
    return (
      skipped.has(absolute) ||
      relative.endsWith('.part') ||
      relative === 'cache' ||
      relative.startsWith(`cache${path.sep}`) ||
      path.basename(relative).startsWith('.parla-backup-')
    );
  };
}

/**
 * Writes the backup to `file` (replaced only once complete); answers the notes on what to back
 * up with other tools.
 */
export async function createBackup(config: Config, file: string): Promise<string[]> {
  const target = path.resolve(file);
  await mkdir(path.dirname(target), { recursive: true });
  // A file that goes while it is archived (a conversion's `.part` renamed into place, an
  // expired file purged) ends tar's walk with ENOENT: the archive is made again, from a new
  // listing, a few times before that is an error.
  for (let attempt = 1; ; attempt++) {
    try {
      await writeBackup(config, target);
      return notesFor(config);
    } catch (error) {
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

async function writeBackup(config: Config, target: string): Promise<void> {
  const work = await mkdtemp(path.join(path.dirname(target), '.parla-backup-'));
  const partial = path.join(work, 'backup.tar');
  try {
    // tar.create starts the archive, tar.replace appends: each part from its own folder.
    let started = false;
    const add = async (options: { cwd: string; prefix?: string }, entries: string[]) => {
      if (entries.length === 0) return;
      const filter = (entry: string) =>
        !skip(path.relative(config.dataDir, path.resolve(options.cwd, entry)));
      await (started ? tar.replace : tar.create)(
        { file: partial, portable: true, filter, ...options },
        entries,
      );
      started = true;
    };
    const skip = leftOut(config, target);
    if (config.database.kind === 'sqlite') {
      const database = new SQLite(config.database.filename, { fileMustExist: true });
      try {
        await database.backup(path.join(work, DATABASE_ENTRY));
      } finally {
        database.close();
      }
      await add({ cwd: work }, [DATABASE_ENTRY]);
    }
    const files = existsSync(config.dataDir) ? await readdir(config.dataDir) : [];
    await add(
      { cwd: config.dataDir, prefix: DATA_ENTRY },
      files.filter((name) => !skip(name)),
    );
    // Nothing to copy (PostgreSQL, S3 and JWT_SECRET set): an empty archive, two zero blocks.
    if (!started) await writeFile(partial, Buffer.alloc(1024));
    await rename(partial, target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export class RestoreError extends Error {}

/**
 * Restores a backup into DATA_DIR and the SQLite database of `config`. Refuses when that
 * database exists already: a restore goes into a new DATA_DIR, the servers stopped. Answers
 * the notes on what to restore with other tools.
 */
export async function restoreBackup(config: Config, file: string): Promise<string[]> {
  const archive = path.resolve(file);
  if (!existsSync(archive)) throw new RestoreError(`${file}: no such backup file.`);
  const names: string[] = [];
  await tar.list({ file: archive, onReadEntry: (entry) => names.push(entry.path) });
  const hasDatabase = names.includes(DATABASE_ENTRY);
  if (config.database.kind === 'sqlite') {
    if (!hasDatabase) {
      throw new RestoreError(
        `${file} holds no SQLite database (it was taken from a PostgreSQL installation): set DATABASE_URL to the restored PostgreSQL database.`,
      );
    }
    if (existsSync(config.database.filename)) {
      throw new RestoreError(
        `${config.database.filename} exists: restore into a new DATA_DIR (stop the servers and move the old one aside first).`,
      );
    }
  } else if (hasDatabase) {
    throw new RestoreError(
      `${file} holds a SQLite database but DATABASE_URL names PostgreSQL: restore it with DATABASE_URL unset (or sqlite:PATH).`,
    );
  }
  await mkdir(config.dataDir, { recursive: true });
  await tar.extract({
    file: archive,
    cwd: config.dataDir,
    strip: 1,
    filter: (entry) => entry.startsWith(`${DATA_ENTRY}/`),
  });
  if (config.database.kind === 'sqlite') {
    const filename = config.database.filename;
    await mkdir(path.dirname(filename), { recursive: true });
    const work = await mkdtemp(path.join(path.dirname(filename), '.parla-restore-'));
    try {
      await tar.extract({ file: archive, cwd: work }, [DATABASE_ENTRY]);
      await rename(path.join(work, DATABASE_ENTRY), filename);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  return notesFor(config);
}
