import path from 'node:path';
import { parseArgs } from 'node:util';
import { PLAN_TYPES, type PlanType } from '@parla/contract';
import { SpeechPool } from '@parla/speech';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { createUserRepository } from './features/account/repository.js';
import { hashPassword } from './lib/password.js';
import { startSpeechWorker } from './lib/speech.js';
import { TokenService } from './lib/tokens.js';

const USAGE = `Usage: parla <command> [options]

Commands:
  migrate                                  bring the database schema up to date
  worker                                   render queued speech requests (needs REDIS_URL) until
                                           SIGINT or SIGTERM; run as many as you need
  create-user --email E --password P       create a user with a validated address and print
              [--plan FREE|BASIC|PREMIUM|BUSINESS] [--unvalidated]
                                           {"token", "expire_date"} as JSON

The database and secrets are those of the environment (DATABASE_URL, DATA_DIR, JWT_SECRET).`;

/** Renders queued speech requests until the process is told to stop. */
async function runWorker(config: Config): Promise<number> {
  if (!config.redisUrl) {
    console.error('parla worker needs REDIS_URL: the queue it takes requests from.');
    return 2;
  }
  const worker = startSpeechWorker({
    redisUrl: config.redisUrl,
    pool: new SpeechPool({
      cacheDir: path.join(config.dataDir, 'cache', 'speech'),
      config: config.speech,
    }),
  });
  console.info(`Parla speech worker: taking requests from ${new URL(config.redisUrl).host}.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  // Finishes the requests in hand, then ends the threads.
  await worker.close();
  return 0;
}

function isPlanType(value: string): value is PlanType {
  return (PLAN_TYPES as readonly string[]).includes(value);
}

async function main(argv: string[]): Promise<number> {
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
    return command ? 0 : 2;
  }
  const config = loadConfig();
  if (command === 'worker') return runWorker(config);
  const db = createDatabase(config.database);
  try {
    await migrateToLatest(db);
    if (command === 'migrate') {
      console.info('Database is up to date.');
      return 0;
    }
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
        emailValidated: !values.unvalidated,
      });
      const issued = await new TokenService(config.jwtSecret).issue(user.id, user.token_version);
      process.stdout.write(`${JSON.stringify(issued)}\n`);
      return 0;
    }
    console.error(`Unknown command: ${command}\n\n${USAGE}`);
    return 2;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
