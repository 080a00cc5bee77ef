import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import type { SpeechConfig } from '@parla/speech';
import { z } from 'zod';
import { loadPlanCatalogue, type PlanCatalogue } from './services/plans/plan-catalogue.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const optionalUrl = (protocols: readonly string[], example: string) =>
  z
    .url({ error: `must be a URL such as ${example}` })
    .refine((value) => !URL.canParse(value) || protocols.includes(new URL(value).protocol), {
      error: `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    })
    .optional();

/** A whole number of seconds from 1 to 3600. */
const seconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds' })
    .int({ error: 'must be a whole number of seconds' })
    .min(1, { error: 'must be between 1 and 3600' })
    .max(3600, { error: 'must be between 1 and 3600' })
    .default(fallback);

const flag = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' });

/** Several servers, object storage, metrics and shutdown (docs/operations.md). */
const OperationsEnv = {
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.-]{1,64}$/, { error: 'must be letters, digits, _, - or . (at most 64)' })
    .default('parla'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be an S3 bucket name' })
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl(['http:', 'https:'], 'https://s3.example.com'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: flag.default('false'),
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters long' }).optional(),
  SHUTDOWN_GRACE_SECONDS: seconds(60),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).default('json'),
  SPEECH_RENDER_TIMEOUT_SECONDS: seconds(120),
};

/** Cloud voices (docs/voices.md): each provider is on when its variables are set. */
const RemoteVoicesEnv = {
  POLLY_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, { error: 'must be an AWS region such as eu-west-1' })
    .optional(),
  POLLY_ENDPOINT: optionalUrl(['http:', 'https:'], 'https://polly.eu-west-1.amazonaws.com'),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  AZURE_SPEECH_KEY: z.string().min(1).optional(),
  AZURE_SPEECH_REGION: z
    .string()
    .regex(/^[a-z0-9]+$/, { error: 'must be an Azure region such as westeurope' })
    .optional(),
  AZURE_SPEECH_ENDPOINT: optionalUrl(
    ['http:', 'https:'],
    'https://westeurope.tts.speech.microsoft.com',
  ),
  OPENAI_TTS_URL: optionalUrl(['http:', 'https:'], 'https://api.openai.com/v1'),
  OPENAI_TTS_KEY: z.string().min(1).optional(),
  OPENAI_TTS_MODEL: z.string().min(1).default('tts-1'),
  OPENAI_TTS_VOICES: z
    .string()
    .regex(/^[\w.-]+(\s*,\s*[\w.-]+)*$/, { error: 'must be a comma-separated list of voice names' })
    .optional(),
  OPENAI_TTS_LANGUAGE: z
    .string()
    .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, {
      error: 'must be a language code such as en-US',
    })
    .default('en-US'),
  REMOTE_SPEECH_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be between 1 and 64' })
    .max(64, { error: 'must be between 1 and 64' })
    .default(4),
  REMOTE_SPEECH_TIMEOUT_SECONDS: seconds(20),
  JOB_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be between 1 and 32' })
    .max(32, { error: 'must be between 1 and 32' })
    .default(2),
  JOB_RUNNER: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  JOB_LEASE_SECONDS: seconds(30),
};

/** Natural voices installed at start (services/voice-installer.ts, docs/decisions/028). */
const DefaultVoicesEnv = {
  DEFAULT_VOICES: z
    .string()
    .regex(/^(none|[A-Za-z0-9][\w.-]*(\s*,\s*[A-Za-z0-9][\w.-]*)*)$/, {
      error:
        'must be none or a comma-separated list of voice names such as kokoro-int8-multi-lang-v1_0',
    })
    .default('kokoro-int8-multi-lang-v1_0'),
  PIPER_VOICES_URL: optionalUrl(
    ['http:', 'https:'],
    'https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/',
  ),
  KOKORO_MODELS_URL: optionalUrl(
    ['http:', 'https:'],
    'https://github.com/k2-fsa/sherpa-onnx/releases/download/tts-models/',
  ),
};

/**
 * `TRUST_PROXY`: which hops in front of the server are trusted to say the client's address
 * (X-Forwarded-For) and protocol (X-Forwarded-Proto): a hop count, `true` (every hop), or a
 * comma list of proxy addresses or CIDR ranges. Unset: nobody, the socket's address is the
 * client (docs/decisions/037-clients-behind-proxies-and-faults.md).
 */
const trustProxy = z
  .string()
  .refine(
    (value) =>
      /^(true|false|\d{1,2})$/.test(value) ||
      value.split(',').every((entry) => isAddressOrRange(entry.trim())),
    {
      error:
        'must be a number of proxies (such as 1), true, or a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.0/8',
    },
  )
  .transform((value): boolean | number | string[] => {
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^\d+$/.test(value)) return Number(value);
    return value.split(',').map((entry) => entry.trim());
  });

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/** Connections (issue 28 item 6): bounds on what idle or slow clients can hold. */
const ConnectionsEnv = {
  TRUST_PROXY: trustProxy.optional(),
  MAX_CONNECTIONS: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be between 1 and 1000000' })
    .max(1_000_000, { error: 'must be between 1 and 1000000' })
    .default(10_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be between 0 (no cap) and 100000' })
    .max(100_000, { error: 'must be between 0 (no cap) and 100000' })
    .optional(),
  HEADERS_TIMEOUT_SECONDS: seconds(10),
  REQUEST_TIMEOUT_SECONDS: seconds(20),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds(10),
};

/** Browser apps on other origins calling the API with keys (issue 16). */
const ApiEnv = {
  CORS_ORIGINS: z
    .string()
    .refine(
      (value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .every((origin) => origin === '*' || /^https?:\/\/[^/\s]+$/.test(origin)),
      { error: 'must be * or a comma-separated list of origins such as https://app.example.com' },
    )
    .optional(),
};

/** Every environment variable the product reads; README.md and .env.example list the same. */
export const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(0, { error: 'must be between 0 and 65535' })
    .max(65535, { error: 'must be between 0 and 65535' })
    .default(3000),
  HOST: z.string().min(1, { error: 'must not be empty' }).default('0.0.0.0'),
  DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
  DATABASE_URL: z
    .string()
    .refine((value) => /^(postgres|postgresql|sqlite|file):/.test(value), {
      error: 'must start with postgres://, postgresql://, sqlite: or file:',
    })
    .optional(),
  PUBLIC_URL: optionalUrl(['http:', 'https:'], 'https://parla.example.com'),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:pass@mail.example.com:587'),
  MAIL_FROM: z.string().min(3).default('Parla <no-reply@parla.localhost>'),
  CONTACT_EMAIL: z.email({ error: 'must be an email address' }).default('support@parla.localhost'),
  // The seller printed on invoices (docs/decisions/051-refunds-and-invoice-pdfs.md).
  COMPANY_NAME: z.string().trim().min(1, { error: 'must not be empty' }).max(200).default('Parla'),
  COMPANY_ADDRESS: z
    .string()
    .trim()
    .max(500, { error: 'must be at most 500 characters (lines separated by ;)' })
    .optional(),
  COMPANY_TAX_ID: z
    .string()
    .trim()
    .max(100, { error: 'must be at most 100 characters' })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters long' }).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_/, {
      error: 'must be a Stripe secret key (sk_test_… or sk_live_…)',
    })
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_/, {
      error: 'must be a Stripe publishable key (pk_test_… or pk_live_…)',
    })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_/, { error: 'must be a Stripe webhook signing secret (whsec_…)' })
    .optional(),
  STRIPE_API_URL: optionalUrl(['http:', 'https:'], 'http://127.0.0.1:12111'),
  REDIS_URL: optionalUrl(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  VOICES_DIR: z.string().min(1).optional(),
  ...DefaultVoicesEnv,
  PARLA_SPEECH_BACKEND: z
    .enum(['auto', 'wasm', 'native', 'program'], {
      error: 'must be auto, wasm, native or program',
    })
    .default('auto'),
  PARLA_ESPEAK_NG: z.string().min(1).default('espeak-ng'),
  SPEECH_EXTRA_LANGUAGES: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` })
    .default('info'),
  ...OperationsEnv,
  ...RemoteVoicesEnv,
  ...ApiEnv,
  ...ConnectionsEnv,
});

export type StorageConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      endpoint: string | undefined;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

export type DatabaseConfig =
  | { kind: 'sqlite'; filename: string }
  | { kind: 'postgres'; connectionString: string };

export interface CompanyDetails {
  name: string;
  address: string[];
  taxId: string | null;
  email: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string;
  /** The seller on invoices: name, address lines, tax id (COMPANY_*), and CONTACT_EMAIL. */
  company: CompanyDetails;
  jwtSecret: string;
  stripe: { secretKey?: string; publishableKey?: string; webhookSecret?: string; apiUrl?: string };
  redisUrl: string | undefined;
  /** The speech engines' configuration: the library reads no environment of its own. */
  speech: SpeechConfig;
  logLevel: (typeof LOG_LEVELS)[number];
  logFormat: 'json' | 'pretty';
  /** Key prefix of every queue and schedule in Redis; one per installation sharing a Redis. */
  redisPrefix: string;
  storage: StorageConfig;
  metricsToken: string | undefined;
  shutdownGraceSeconds: number;
  /** The time one rendering may take before it is stopped and its request fails. */
  renderTimeoutSeconds: number;
  /** Origins allowed to call the API from a browser (CORS_ORIGINS); empty: none. */
  corsOrigins: string[];
  /** Parts of jobs one server renders at once (JOB_CONCURRENCY). */
  jobConcurrency: number;
  /** Whether this server renders jobs (JOB_RUNNER=off: it only takes them). */
  runJobs: boolean;
  /** How long a job stays a stopped server's before another takes it over (JOB_LEASE_SECONDS). */
  jobLeaseSeconds: number;
  /**
   * The seed of the plans table (PLAN_* over the defaults): written at start for a plan the
   * database lacks, never over one edited in the console. What the server enforces and the
   * pricing page shows is the table's (services/plans/plan-store.ts, decision 055).
   */
  plans: PlanCatalogue;
  /** Voices installed in the background at start (DEFAULT_VOICES; empty: none) and their hosts. */
  defaultVoices: { names: string[]; piperBase?: string; kokoroBase?: string };
  connections: ConnectionsConfig;
}

/** How the server treats its clients' connections (server.ts, plugins/connections.ts). */
export interface ConnectionsConfig {
  /** Fastify's trustProxy: hops trusted for X-Forwarded-For/-Proto; false: none. */
  trustProxy: boolean | number | string[];
  /** Connections the server holds at once (MAX_CONNECTIONS); past it new ones are dropped. */
  maxConnections: number;
  /** Connections one socket address may hold (0: no cap; default 0 behind a trusted proxy). */
  perAddress: number;
  /** A request's headers must have arrived within this (slowloris). */
  headersTimeoutMs: number;
  /** A whole request (headers and body) must have arrived within this. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/** Connections one address may hold when no proxy is trusted: a browser opens six per host. */
const DEFAULT_CONNECTIONS_PER_ADDRESS = 64;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Empty strings in the environment mean "not set", as in most .env tooling. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
}

function databaseFromUrl(url: string | undefined, dataDir: string): DatabaseConfig {
  if (!url) return { kind: 'sqlite', filename: path.join(dataDir, 'parla.sqlite') };
  if (/^postgres(ql)?:/.test(url)) return { kind: 'postgres', connectionString: url };
  const filename = url.replace(/^(sqlite|file):(\/\/)?/, '');
  return { kind: 'sqlite', filename: path.resolve(filename) };
}

/**
 * The JWT secret comes from the environment or is generated once and kept in DATA_DIR, so that
 * tokens survive restarts without any set-up (ARCHITECTURE.md: secrets).
 */
function loadOrCreateJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret?: unknown };
    if (typeof stored.jwtSecret === 'string' && stored.jwtSecret.length >= 32) {
      return stored.jwtSecret;
    }
    throw new ConfigError(`${file} has no valid jwtSecret; delete the file to generate a new one`);
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${JSON.stringify({ jwtSecret }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return jwtSecret;
}

/** The cloud voice providers whose variables are set (docs/voices.md). */
function remoteVoices(e: z.infer<typeof EnvSchema>): SpeechConfig {
  const limits = {
    concurrency: e.REMOTE_SPEECH_CONCURRENCY,
    timeoutMs: e.REMOTE_SPEECH_TIMEOUT_SECONDS * 1000,
  };
  return {
    ...(e.POLLY_REGION && {
      polly: {
        ...limits,
        region: e.POLLY_REGION,
        ...(e.POLLY_ENDPOINT && { endpoint: e.POLLY_ENDPOINT }),
        // Without keys here, the SDK's own chain (profile, instance role) finds them.
        ...(e.AWS_ACCESS_KEY_ID &&
          e.AWS_SECRET_ACCESS_KEY && {
            credentials: {
              accessKeyId: e.AWS_ACCESS_KEY_ID,
              secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
              ...(e.AWS_SESSION_TOKEN && { sessionToken: e.AWS_SESSION_TOKEN }),
            },
          }),
      },
    }),
    ...(e.AZURE_SPEECH_KEY && {
      azure: {
        ...limits,
        key: e.AZURE_SPEECH_KEY,
        region: e.AZURE_SPEECH_REGION ?? '',
        ...(e.AZURE_SPEECH_ENDPOINT && { endpoint: e.AZURE_SPEECH_ENDPOINT }),
      },
    }),
    ...(e.OPENAI_TTS_URL && {
      openai: {
        ...limits,
        url: e.OPENAI_TTS_URL,
        ...(e.OPENAI_TTS_KEY && { key: e.OPENAI_TTS_KEY }),
        model: e.OPENAI_TTS_MODEL,
        ...(e.OPENAI_TTS_VOICES && {
          voices: e.OPENAI_TTS_VOICES.split(',').map((voice) => voice.trim()),
        }),
        language: e.OPENAI_TTS_LANGUAGE,
      },
    }),
  };
}

/**
 * Reads `.env` of the working directory into the environment, as `.env.example` suggests;
 * variables already set win over the file (Node's `process.loadEnvFile`).
 */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Parses the environment; throws ConfigError naming each bad variable. Creates DATA_DIR. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    const missing = e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    throw new ConfigError(
      `Invalid configuration:\n  ${missing}: must be set with the other S3 access key variable`,
    );
  }
  if (e.S3_BUCKET && !e.JWT_SECRET) {
    // Servers sharing a bucket serve each other's users: a secret generated per DATA_DIR would
    // make one server's sign-ins invalid on the next.
    throw new ConfigError(
      'Invalid configuration:\n  JWT_SECRET: must be set when S3_BUCKET is (every server of the installation signs with it)',
    );
  }
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY)) {
    const missing = e.AWS_ACCESS_KEY_ID ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID';
    throw new ConfigError(
      `Invalid configuration:\n  ${missing}: must be set with the other AWS access key variable`,
    );
  }
  if (e.AZURE_SPEECH_KEY && !e.AZURE_SPEECH_REGION && !e.AZURE_SPEECH_ENDPOINT) {
    throw new ConfigError(
      'Invalid configuration:\n  AZURE_SPEECH_REGION: must be set with AZURE_SPEECH_KEY (or AZURE_SPEECH_ENDPOINT)',
    );
  }
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    // Node refuses a headers timeout longer than the whole request's.
    throw new ConfigError(
      'Invalid configuration:\n  HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS',
    );
  }
  let plans: PlanCatalogue;
  try {
    plans = loadPlanCatalogue(env);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw new ConfigError(`DATA_DIR: cannot create ${dataDir} (${(error as Error).message})`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: databaseFromUrl(e.DATABASE_URL, dataDir),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    company: {
      name: e.COMPANY_NAME,
      address: (e.COMPANY_ADDRESS ?? '')
        .split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      taxId: e.COMPANY_TAX_ID || null,
      email: e.CONTACT_EMAIL,
    },
    jwtSecret: e.JWT_SECRET ?? loadOrCreateJwtSecret(dataDir),
    stripe: {
      ...(e.STRIPE_SECRET_KEY && { secretKey: e.STRIPE_SECRET_KEY }),
      ...(e.STRIPE_PUBLISHABLE_KEY && { publishableKey: e.STRIPE_PUBLISHABLE_KEY }),
      ...(e.STRIPE_WEBHOOK_SECRET && { webhookSecret: e.STRIPE_WEBHOOK_SECRET }),
      ...(e.STRIPE_API_URL && { apiUrl: e.STRIPE_API_URL }),
    },
    redisUrl: e.REDIS_URL,
    speech: {
      espeak: {
        backend: e.PARLA_SPEECH_BACKEND,
        program: e.PARLA_ESPEAK_NG,
        extraLanguages: e.SPEECH_EXTRA_LANGUAGES === 'true',
      },
      piper: { voicesDir: path.resolve(e.VOICES_DIR ?? path.join(dataDir, 'voices')) },
      ...remoteVoices(e),
    },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    redisPrefix: e.REDIS_PREFIX,
    storage: e.S3_BUCKET
      ? {
          kind: 's3',
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
        }
      : { kind: 'local', root: path.join(dataDir, 'files') },
    metricsToken: e.METRICS_TOKEN,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    renderTimeoutSeconds: e.SPEECH_RENDER_TIMEOUT_SECONDS,
    jobConcurrency: e.JOB_CONCURRENCY,
    runJobs: e.JOB_RUNNER === 'on',
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    plans,
    defaultVoices: {
      names:
        e.DEFAULT_VOICES === 'none' ? [] : e.DEFAULT_VOICES.split(',').map((name) => name.trim()),
      ...(e.PIPER_VOICES_URL && { piperBase: e.PIPER_VOICES_URL }),
      ...(e.KOKORO_MODELS_URL && { kokoroBase: e.KOKORO_MODELS_URL }),
    },
    connections: {
      trustProxy: e.TRUST_PROXY ?? false,
      maxConnections: e.MAX_CONNECTIONS,
      // Behind a trusted proxy every client arrives from the proxy's few addresses.
      perAddress:
        e.MAX_CONNECTIONS_PER_ADDRESS ??
        (e.TRUST_PROXY === undefined || e.TRUST_PROXY === false
          ? DEFAULT_CONNECTIONS_PER_ADDRESS
          : 0),
      headersTimeoutMs: e.HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    },
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
  };
}
