import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/server.js');
/** The `parla` command (its bin's launcher, which runs apps/server/dist/cli.js). */
export const CLI_ENTRY = path.join(ROOT, 'apps/server/bin/parla.js');
export const WEB_INDEX = path.join(ROOT, 'apps/web/dist/index.html');

const run = promisify(execFile);

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('Could not find a free port.'));
      });
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  /** The environment the server runs with; the CLI needs the same one. */
  env: Record<string, string>;
  dataDir: string;
  stop(): Promise<void>;
}

/** The environment of the product under test: a fresh DATA_DIR, SQLite, loopback only. */
function serverEnv(port: number, dataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  // Keep PATH and friends, but none of the developer's product configuration.
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('PARLA_') && key !== 'DATABASE_URL')
      env[key] = value;
  }
  return {
    ...env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    // End-to-end runs never reach the real model hosts: espeak-ng only.
    DEFAULT_VOICES: 'none',
  };
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with code ${child.exitCode} before it was healthy.`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.status === 200) return;
      lastError = `GET /api/health answered ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not become healthy in ${timeoutMs} ms: ${lastError}`);
}

/** Starts the built server on a free port; `extraEnv` adds to its configuration. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  for (const [file, what] of [
    [SERVER_ENTRY, 'the server'],
    [WEB_INDEX, 'the web app'],
  ] as const) {
    if (!existsSync(file)) {
      throw new Error(`${what} is not built (${file} is missing): run npm run build at the root.`);
    }
  }
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-e2e-data-'));
  const env = { ...serverEnv(port, dataDir), ...extraEnv };
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timeout);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, env, dataDir, stop };
}

export interface IssuedToken {
  token: string;
  expire_date: string;
}

/** Creates a user with a validated address through the server's CLI; answers its token. */
export async function createUser(
  env: Record<string, string>,
  user: { email: string; password: string; plan?: string },
): Promise<IssuedToken> {
  const args = [CLI_ENTRY, 'create-user', '--email', user.email, '--password', user.password];
  if (user.plan) args.push('--plan', user.plan);
  const { stdout } = await run(process.execPath, args, { cwd: ROOT, env });
  const issued = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as IssuedToken;
  if (typeof issued.token !== 'string') throw new Error(`create-user printed no token: ${stdout}`);
  return issued;
}

/** Makes the account of `email` an administrator, as an operator does (`parla admin grant`). */
export async function grantAdmin(env: Record<string, string>, email: string): Promise<void> {
  await run(process.execPath, [CLI_ENTRY, 'admin', 'grant', email], { cwd: ROOT, env });
}
