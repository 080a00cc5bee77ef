/**
 * `parla`: the server's operator commands (USAGE below); bin/parla.js calls `main`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PLAN_TYPES, type PlanType } from '@parla/contract';
import { SpeechPool, voicesMain } from '@parla/speech';
import { type Config, ConfigError, loadConfig, loadDotEnv } from './config.js';
import { createDatabase, type Db, migrateToLatest } from './db/database.js';
import { hashPassword } from './lib/password.js';
import { RedisClients } from './lib/redis.js';
import { startSpeechWorker } from './lib/speech.js';
import { TokenService } from './lib/tokens.js';
import { createUserRepository, normaliseEmail } from './services/accounts/user-repository.js';
import { setRole } from './services/admin/administrators.js';
import { createBackup, RestoreError, restoreBackup } from './services/backup.js';
import { createContentImages } from './services/content/images.js';
import { DEFAULT_CONTENT_DIR } from './services/content/loader.js';
import { exportContent } from './services/content/seed-repository.js';
import { readPlans, seedPlans } from './services/plans/plan-store.js';
import { createVoiceInstaller } from './services/voice-installer.js';

const USAGE = `Usage: parla <command> [options]

Commands:
  migrate                                  bring the database schema up to date
  worker                                   render queued speech requests (needs REDIS_URL) until
                                           SIGINT or SIGTERM; run as many as you need
  voices <available|install|list|remove>   the natural voices of VOICES_DIR (parla voices --help)
  create-user --email E --password P       create a user with a validated address and print
              [--plan FREE|BASIC|PREMIUM|BUSINESS] [--unvalidated]
                                           {"token", "expire_date"} as JSON
  backup FILE                              write a consistent copy of the SQLite database and
                                           the files of DATA_DIR to FILE (a tar) while the
                                           servers run; says how to back up PostgreSQL and S3
  restore FILE                             restore such a backup into a new DATA_DIR
  content export DIR                       write the published pages and articles, languages.yaml
                                           and the images in the layout of content/ (the seed of
                                           an empty database; content/README.md)
  admin <grant|revoke> EMAIL               make the account of EMAIL an administrator of the
                                           console (/admin), or a user again; the last
                                           administrator is never revoked

The database and secrets are those of the environment (DATABASE_URL, DATA_DIR, JWT_SECRET).`;

/** Renders queued speech requests until the process is told to stop. */
async function runWorker(config: Config): Promise<number> {
  if (!config.redisUrl) {
    console.error('parla worker needs REDIS_URL: the queue it takes requests from.');
    return 2;
  }
  // Listening before saying so: a signal sent on the first line must already stop it cleanly.
  // `on`, not `once`: a second signal (a process group gets one each) must not cut the
  // shutdown short.
  const stop = new Promise<void>((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
  // The audio goes where the servers read it: the same S3 bucket (or, on the servers' own
  // machine, the same DATA_DIR). Loaded here: the other commands need no AWS SDK.
  const { createStorage, storageName, storageNameKey } = await import(
    './lib/storage/from-config.js'
  );
  const ours = storageName(config.storage);
  const redis = new RedisClients(config.redisUrl);
  const client = redis.connection({ maxRetriesPerRequest: 1 });
  const theirs = await client
    .get(storageNameKey(config.redisPrefix))
    // Redis away: the worker starts and waits for it, as it always has.
    .catch(() => null)
    .finally(() => client.disconnect());
  if (theirs && theirs !== ours) {
    console.error(
      `parla worker: the servers keep audio in ${theirs}, this worker would store it in ${ours}, where they would never find it. Give the worker the servers' storage settings (S3_BUCKET, S3_ENDPOINT, … or the same DATA_DIR).`,
    );
    return 2;
  }
  const storage = createStorage(config.storage);
  const worker = startSpeechWorker({
    redis,
    prefix: config.redisPrefix,
    storage,
    pool: new SpeechPool({
      cacheDir: path.join(config.dataDir, 'cache', 'speech'),
      config: config.speech,
      timeoutMs: config.renderTimeoutSeconds * 1000,
    }),
  });
  // A worker on its own machine makes sure of the default voices too (docs/neural-voices.md).
  const voices = createVoiceInstaller({
    voicesDir: config.speech.piper?.voicesDir ?? path.join(config.dataDir, 'voices'),
    names: config.defaultVoices.names,
    piperBase: config.defaultVoices.piperBase,
    kokoroBase: config.defaultVoices.kokoroBase,
    log: {
      info: (_data, message) => console.info(`Parla speech worker: ${message}`),
      warn: (_data, message) => console.warn(`Parla speech worker: ${message}`),
      error: (_data, message) => console.error(`Parla speech worker: ${message}`),
    },
  });
  voices.start();
  console.info(`Parla speech worker: taking requests from ${new URL(config.redisUrl).host}.`);
  console.info(`Parla speech worker: storing audio in ${ours}.`);
  await stop;
  // Finishes the requests in hand, then ends the threads; past the grace, the requests still
  // in hand go back to the queue for another worker.
  const grace = setTimeout(() => void worker.handBack(), config.shutdownGraceSeconds * 1000);
  await voices.close();
  await worker.close();
  clearTimeout(grace);
  storage.close();
  console.info('Parla speech worker: stopped.');
  return 0;
}

function isPlanType(value: string): value is PlanType {
  return (PLAN_TYPES as readonly string[]).includes(value);
}

/** Runs a command; answers its exit status (2: usage), printing errors. */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (
      error instanceof Error &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    console.error(
      error instanceof ConfigError || error instanceof RestoreError ? error.message : error,
    );
    return 1;
  }
}

const COMMANDS = ['migrate', 'worker', 'create-user', 'backup', 'restore', 'admin', 'content'];

/**
 * `parla admin grant|revoke EMAIL`: how the first administrator is made (no default account
 * or password exists, decision 044). Recorded in the audit log with no actor.
 */
async function grantOrRevoke(db: Db, action: string | undefined, email: string | undefined) {
  if ((action !== 'grant' && action !== 'revoke') || !email) {
    console.error(`admin needs grant or revoke, and an EMAIL.\n\n${USAGE}`);
    return 2;
  }
  const address = normaliseEmail(email);
  const result = await setRole(db, { email: address }, action === 'grant' ? 'ADMIN' : 'USER', null);
  if (!result.ok) {
    console.error(
      result.reason === 'not-found'
        ? `There is no account with the address ${address}: register it first (or parla create-user).`
        : `${address} is the last administrator: grant another account first.`,
    );
    return 1;
  }
  const role = action === 'grant' ? 'an administrator' : 'a user';
  console.info(`${address} ${result.changed ? 'is now' : 'was already'} ${role}.`);
  return 0;
}

/** `parla content export DIR` (decision 054). */
async function exportContentTo(
  db: Db,
  config: Config,
  action: string | undefined,
  dir: string | undefined,
) {
  if (action !== 'export' || !dir) {
    console.error(`content needs export and a DIR.\n\n${USAGE}`);
    return 2;
  }
  // Loaded here: the other commands need no AWS SDK.
  const { createStorage } = await import('./lib/storage/from-config.js');
  const storage = createStorage(config.storage);
  try {
    const pictures = createContentImages(storage, DEFAULT_CONTENT_DIR);
    const { files, images } = await exportContent(db, dir, pictures);
    console.info(`${files} pages and articles and ${images} images written to ${dir}.`);
  } finally {
    storage.close();
  }
  return 0;
}

/** `parla backup FILE` and `parla restore FILE`: services/backup.ts does the work. */
async function backupOrRestore(command: string, file: string | undefined, config: Config) {
  if (!file) {
    console.error(`${command} needs a FILE.\n\n${USAGE}`);
    return 2;
  }
  if (
    command === 'backup' &&
    config.database.kind === 'sqlite' &&
    !existsSync(config.database.filename)
  ) {
    console.error(
      `There is no database at ${config.database.filename} to back up: DATA_DIR names an installation that has not started yet.`,
    );
    return 1;
  }
  const notes =
    command === 'backup' ? await createBackup(config, file) : await restoreBackup(config, file);
  console.info(command === 'backup' ? `Backup written to ${file}.` : `Restored ${file}.`);
  for (const note of notes) console.info(`\n${note}`);
  return 0;
}

async function run(argv: string[]): Promise<number> {
  // `parla voices …` is `npm run voices -- …` (its own options: docs/neural-voices.md).
  if (argv[0] === 'voices') return voicesMain(argv.slice(1));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      plan: { type: 'string', default: 'FREE' },
      unvalidated: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.info(USAGE);
    return values.help ? 0 : 2;
  }
  if (!COMMANDS.includes(command)) {
    console.error(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  if (command === 'worker') return runWorker(config);
  if (command === 'backup' || command === 'restore') {
    return backupOrRestore(command, positionals[1], config);
  }
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    await seedPlans(db, config.plans);
    if (command === 'migrate') {
      console.info('Database is up to date.');
      return 0;
    }
    if (command === 'admin') return await grantOrRevoke(db, positionals[1], positionals[2]);
    if (command === 'content')
      return await exportContentTo(db, config, positionals[1], positionals[2]);
    if (command === 'create-user') {
      const plan = values.plan.toUpperCase();
      if (!values.email || !values.password || !isPlanType(plan)) {
        console.error(`create-user needs --email, --password and a valid --plan.\n\n${USAGE}`);
        return 2;
      }
      const user = await createUserRepository(db).create({
        email: values.email,
        passwordHash: await hashPassword(values.password),
        plan,
        terms: (await readPlans(db))[plan],
        emailValidated: !values.unvalidated,
      });
      const issued = await new TokenService(config.jwtSecret).issue(user.id, user.token_version);
      process.stdout.write(`${JSON.stringify(issued)}\n`);
    }
    return 0;
  } finally {
    await db.destroy();
  }
}
