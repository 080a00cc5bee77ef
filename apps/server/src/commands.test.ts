import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTestVoice } from '@parla/speech/testing';
import { Redis } from 'ioredis';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TEST_REDIS_URL as REDIS_URL, redisReachable } from '../test/redis.js';

/*
 * The commands of README.md and the package READMEs, run as a person runs them after
 * `npm install`: through npx (or npm run) from the repository's root, so through the bins npm
 * linked and their launchers. `--no-install`: npx must find them here, never in the registry.
 * The first command compiles dist/ when it is missing or stale, hence the long first timeout.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-commands-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const redis = await redisReachable('the parla worker command test');

/** DATA_DIR and DATABASE_URL of this test run; everything else from the test's environment. */
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  // Never the real model hosts (a worker makes sure of DEFAULT_VOICES).
  DEFAULT_VOICES: 'none',
  ...(inject('databaseUrl') && { DATABASE_URL: inject('databaseUrl') }),
};

interface Done {
  code: number;
  stdout: string;
  stderr: string;
}

function command(
  program: 'npx' | 'npm',
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return new Promise<Done>((resolve) => {
    const child = execFile(
      program,
      program === 'npx' ? ['--no-install', ...args] : args,
      { cwd: ROOT, env: options.env ?? env, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

const npx = (args: string[], options?: { input?: string; env?: NodeJS.ProcessEnv }) =>
  command('npx', args, options);

// npm and Node start for every command: seconds each on a busy two-core machine.
describe('the commands, through npx from the repository root', { timeout: 120_000 }, () => {
  let help: Done;
  beforeAll(async () => {
    help = await npx(['parla', '--help']);
  }, 600_000);

  it('parla --help prints the usage', () => {
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: parla <command>/);
  });

  it('parla migrate brings the database up to date', async () => {
    const result = await npx(['parla', 'migrate']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Database is up to date.\n');
  });

  it('parla worker names REDIS_URL when it has no queue', async () => {
    const { REDIS_URL: _none, ...withoutRedis } = env;
    const result = await npx(['parla', 'worker'], { env: withoutRedis });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('parla worker needs REDIS_URL');
  });

  it.runIf(redis)('parla worker takes requests until SIGTERM, then stops', async () => {
    // A database number of its own: the worker reads the queue under its default key prefix.
    const worker = spawn('npx', ['--no-install', 'parla', 'worker'], {
      cwd: ROOT,
      env: { ...env, REDIS_URL: ownDatabase(REDIS_URL) },
      // Its own process group, signalled as a terminal or a service manager does.
      detached: true,
    });
    const output = await untilStopped(worker, 'taking requests', () => {
      if (worker.pid) process.kill(-worker.pid, 'SIGTERM');
    });
    expect(output).toContain(`taking requests from ${new URL(REDIS_URL).host}.`);
    expect(output).toContain('Parla speech worker: stopped.');
  });

  it.runIf(redis)(
    'parla worker refuses to store audio where the servers do not read it',
    async () => {
      const url = ownDatabase(REDIS_URL);
      const client = new Redis(url);
      await client.set('parla:storage', 's3://the-servers-bucket');
      const result = await npx(['parla', 'worker'], { env: { ...env, REDIS_URL: url } });
      await client.del('parla:storage');
      client.disconnect();
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('the servers keep audio in s3://the-servers-bucket');
      expect(result.stderr).toContain(path.join(dataDir, 'files'));
    },
  );

  it('parla-say --help prints its usage', async () => {
    const result = await npx(['parla-say', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: parla-say \[options\] \[FILE\]/);
  });

  it('parla-say speaks standard input into a WAV file', async () => {
    const out = path.join(dataDir, 'hello.wav');
    const result = await npx(['parla-say', '-o', out], { input: 'Hello from the command line.' });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\d+\.\d\d s, 16000 Hz wav/);
    const wav = readFileSync(out);
    expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
    expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    // 16-bit mono at 16 kHz: well over a second of sound.
    expect((wav.length - 44) / 32_000).toBeGreaterThan(1);
  });

  it('parla-say names the input file at the position of an SSML error, not the output', async () => {
    const input = path.join(dataDir, 'bad.ssml');
    writeFileSync(input, '<speak>\n<prosody rate="fast">x</speak>');
    const result = await npx(['parla-say', '-o', path.join(dataDir, 'bad.wav'), input]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`parla-say: ${input}:2:`);
    expect(result.stderr).not.toContain('bad.wav');
  });

  it('parla-say compiles first when dist/ is older than its sources, once for two at a time', async () => {
    const built = path.join(ROOT, 'packages/speech/dist/.tsbuildinfo');
    const longAgo = new Date('2001-01-01');
    utimesSync(built, longAgo, longAgo);
    const both = await Promise.all([npx(['parla-say', '--help']), npx(['parla-say', '--help'])]);
    for (const result of both) {
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: parla-say/);
    }
    // One compiles; the other waits for it, or starts after it and finds dist/ up to date.
    const compiled = both.filter((r) => r.stderr.includes('compiling packages/speech first'));
    expect(compiled).toHaveLength(1);
    expect(statSync(built).mtimeMs).toBeGreaterThan(longAgo.getTime());
    // The one-file parla-say is made with the build, never left older than it.
    const bundle = path.join(ROOT, 'packages/speech/dist/parla-say.mjs');
    expect(statSync(bundle).mtimeMs).toBeGreaterThanOrEqual(statSync(built).mtimeMs);
  }, 600_000);

  it('parla-say writes mp3 and ogg with an effect, and speaks with a neural voice', async () => {
    const input = path.join(dataDir, 'short.txt');
    writeFileSync(input, 'One short sentence, spoken once.');
    for (const format of ['mp3', 'ogg'] as const) {
      const out = path.join(dataDir, `short.${format}`);
      const result = await npx(['parla-say', '--effect', 'whispered', '-o', out, input]);
      expect(result.stderr).toMatch(new RegExp(`\\d+\\.\\d\\d s, 24000 Hz ${format} `));
      const { format: decoded } = await parseFile(out);
      expect(decoded.sampleRate).toBe(24_000);
      expect(decoded.duration).toBeGreaterThan(1);
    }
    const voices = path.join(dataDir, 'neural-voices');
    await makeTestVoice(path.join(voices, 'en_US-test-x_low'));
    const out = path.join(dataDir, 'neural.wav');
    const result = await npx(
      ['parla-say', '--engine', 'neural', '--voice', 'neural:en_US-test-x_low', '-o', out, input],
      { env: { ...env, VOICES_DIR: voices } },
    );
    expect(result.stderr).toMatch(/\d+\.\d\d s, 16000 Hz wav \(neural:en_US-test-x_low\)/);
    const { format: decoded } = await parseFile(out);
    expect(decoded.duration).toBeGreaterThan(0.5);
  });

  it('npm run voices lists the installed neural voices', async () => {
    const voices = path.join(dataDir, 'voices');
    const result = await command('npm', [
      'run',
      '--silent',
      'voices',
      '--',
      'list',
      '--dir',
      voices,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`No neural voices in ${voices}.\n`);
  });
});

/** The same Redis, database 15 (the tests' queues use database 0 with prefixes of their own). */
function ownDatabase(url: string): string {
  const own = new URL(url);
  own.pathname = '/15';
  return own.toString();
}

/** Waits for `ready` in the child's output, calls `stop`, and answers its output once it ends. */
function untilStopped(child: ChildProcess, ready: string, stop: () => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    let stopping = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!stopping && output.includes(ready)) {
        stopping = true;
        stop();
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('error', reject);
    // 'close': every process holding the output pipes has ended, the worker included.
    child.on('close', () => resolve(output));
  });
}
