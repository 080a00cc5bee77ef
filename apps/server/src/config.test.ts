import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, loadDotEnv } from './config.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'parla-config-'));
  dirs.push(dir);
  return path.join(dir, 'data');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('gives the documented defaults and creates DATA_DIR with a SQLite database inside', () => {
    const dataDir = freshDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({
      kind: 'sqlite',
      filename: path.join(dataDir, 'parla.sqlite'),
    });
    expect(config.speech).toEqual({
      espeak: { backend: 'auto', program: 'espeak-ng', extraLanguages: false },
      piper: { voicesDir: path.join(dataDir, 'voices') },
    });
    expect(config.smtpUrl).toBeUndefined();
    expect(statSync(dataDir).isDirectory()).toBe(true);
  });

  it('builds the speech engines configuration, and names a bad speech setting', () => {
    const dataDir = freshDir();
    const config = loadConfig({
      DATA_DIR: dataDir,
      PARLA_SPEECH_BACKEND: 'wasm',
      SPEECH_EXTRA_LANGUAGES: 'true',
      VOICES_DIR: path.join(dataDir, 'v'),
    });
    expect(config.speech.espeak).toMatchObject({ backend: 'wasm', extraLanguages: true });
    expect(config.speech.piper?.voicesDir).toBe(path.join(dataDir, 'v'));
    expect(() => loadConfig({ DATA_DIR: dataDir, SPEECH_EXTRA_LANGUAGES: 'yes' })).toThrow(
      'SPEECH_EXTRA_LANGUAGES: must be true or false',
    );
  });

  it('generates a JWT secret once, keeps it private in DATA_DIR and reuses it', () => {
    const dataDir = freshDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    const file = path.join(dataDir, 'secrets.json');
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ jwtSecret: first });
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
  });

  it('uses JWT_SECRET from the environment without writing a secrets file', () => {
    const dataDir = freshDir();
    const secret = 'x'.repeat(40);
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: secret }).jwtSecret).toBe(secret);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });

  it('selects PostgreSQL from a postgres:// DATABASE_URL', () => {
    const url = 'postgres://parla@db.internal:5432/parla';
    expect(loadConfig({ DATA_DIR: freshDir(), DATABASE_URL: url }).database).toEqual({
      kind: 'postgres',
      connectionString: url,
    });
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash from a given one', () => {
    expect(loadConfig({ DATA_DIR: freshDir(), PORT: '8080' }).publicUrl).toBe(
      'http://localhost:8080',
    );
    expect(
      loadConfig({ DATA_DIR: freshDir(), PUBLIC_URL: 'https://parla.example.com/' }).publicUrl,
    ).toBe('https://parla.example.com');
  });

  it.each([
    ['PORT', 'eighty', 'PORT: must be a whole number'],
    ['PORT', '70000', 'PORT: must be between 0 and 65535'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must start with postgres://'],
    ['SMTP_URL', 'http://mail', 'SMTP_URL: must start with smtp:// or smtps://'],
    ['PUBLIC_URL', 'not a url', 'PUBLIC_URL: must be a URL'],
    ['JWT_SECRET', 'short', 'JWT_SECRET: must be at least 32 characters long'],
    ['STRIPE_SECRET_KEY', 'pk_test_123', 'STRIPE_SECRET_KEY: must be a Stripe secret key'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL: must be one of'],
    ['CONTACT_EMAIL', 'nobody', 'CONTACT_EMAIL: must be an email address'],
  ])('refuses %s=%s with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), [name]: value })).toThrowError(ConfigError);
    expect(() => loadConfig({ DATA_DIR: freshDir(), [name]: value })).toThrowError(message);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATA_DIR: freshDir(), PORT: '', SMTP_URL: '' }).port).toBe(3000);
  });
});

describe('loadConfig: several servers (docs/operations.md)', () => {
  const s3 = {
    S3_BUCKET: 'parla-audio',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_ACCESS_KEY_ID: 'key-id',
    S3_SECRET_ACCESS_KEY: 'secret',
    JWT_SECRET: 'x'.repeat(40),
  };

  it('keeps objects in DATA_DIR/files by default and in S3 when S3_BUCKET is set', () => {
    const dataDir = freshDir();
    const local = loadConfig({ DATA_DIR: dataDir });
    expect(local.storage).toEqual({ kind: 'local', root: path.join(dataDir, 'files') });
    expect(local).toMatchObject({
      redisPrefix: 'parla',
      metricsToken: undefined,
      shutdownGraceSeconds: 60,
      renderTimeoutSeconds: 120,
      logFormat: 'json',
    });
    expect(loadConfig({ DATA_DIR: freshDir(), SPEECH_RENDER_TIMEOUT_SECONDS: '30' })).toMatchObject(
      {
        renderTimeoutSeconds: 30,
      },
    );
    expect(() => loadConfig({ DATA_DIR: freshDir(), SPEECH_RENDER_TIMEOUT_SECONDS: '0' })).toThrow(
      /SPEECH_RENDER_TIMEOUT_SECONDS/,
    );
    expect(
      loadConfig({ DATA_DIR: freshDir(), ...s3, S3_FORCE_PATH_STYLE: 'true' }).storage,
    ).toEqual({
      kind: 's3',
      bucket: 'parla-audio',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('refuses S3 without JWT_SECRET: every server must sign with the same secret', () => {
    const { JWT_SECRET: _secret, ...withoutSecret } = s3;
    expect(() => loadConfig({ DATA_DIR: freshDir(), ...withoutSecret })).toThrowError(
      'JWT_SECRET: must be set when S3_BUCKET is',
    );
  });

  it('refuses half an S3 key pair, naming the missing variable', () => {
    const { S3_SECRET_ACCESS_KEY: _secret, ...half } = s3;
    expect(() => loadConfig({ DATA_DIR: freshDir(), ...half })).toThrowError(
      'S3_SECRET_ACCESS_KEY: must be set with the other S3 access key variable',
    );
  });

  it.each([
    ['S3_BUCKET', 'Not_A_Bucket', 'S3_BUCKET: must be an S3 bucket name'],
    ['S3_ENDPOINT', 'ftp://s3', 'S3_ENDPOINT: must start with http:// or https://'],
    ['S3_FORCE_PATH_STYLE', 'maybe', 'S3_FORCE_PATH_STYLE: must be true or false'],
    ['METRICS_TOKEN', 'short', 'METRICS_TOKEN: must be at least 16 characters long'],
    ['SHUTDOWN_GRACE_SECONDS', '0', 'SHUTDOWN_GRACE_SECONDS: must be between 1 and 3600'],
    ['SHUTDOWN_GRACE_SECONDS', 'soon', 'SHUTDOWN_GRACE_SECONDS: must be a number of seconds'],
    ['LOG_FORMAT', 'xml', 'LOG_FORMAT: must be json or pretty'],
    ['REDIS_PREFIX', 'a b', 'REDIS_PREFIX: must be letters, digits'],
  ])('refuses %s=%s with a message naming the variable', (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: freshDir(), [name]: value })).toThrowError(message);
  });
});

describe('loadDotEnv', () => {
  it('reads .env into the environment, the variables already set winning', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parla-dotenv-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'PARLA_DOTENV_TEST_A=from-file\nPARLA_DOTENV_TEST_B=from-file\n');
    process.env.PARLA_DOTENV_TEST_B = 'from-environment';
    try {
      loadDotEnv(file);
      expect(process.env.PARLA_DOTENV_TEST_A).toBe('from-file');
      expect(process.env.PARLA_DOTENV_TEST_B).toBe('from-environment');
      // No file: nothing happens, nothing fails.
      expect(() => loadDotEnv(path.join(dir, 'missing.env'))).not.toThrow();
    } finally {
      delete process.env.PARLA_DOTENV_TEST_A;
      delete process.env.PARLA_DOTENV_TEST_B;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
