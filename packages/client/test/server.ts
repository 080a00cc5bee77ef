import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The real Parla server for the client's tests: apps/server's entry point run from its sources
 * (tsx, the `@parla/source` condition) in a process of its own, on 127.0.0.1 and a port the OS
 * picks, with a fresh DATA_DIR (SQLite) and none of the developer's configuration. Users are
 * made with the server's own `parla create-user` command, as the end-to-end suite makes them.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SERVER_SOURCE = path.join(ROOT, 'apps/server/src/server.ts');
const CLI_SOURCE = path.join(ROOT, 'apps/server/src/cli.ts');
/** Runs a command module's main(argv), as the `parla` launcher does with the build. */
const RUN_MAIN = path.join(ROOT, 'scripts/run-main.mjs');
const FROM_SOURCE = ['--conditions=@parla/source', '--import', 'tsx'];
const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;

export interface RunningServer {
  baseUrl: string;
  /**
   * A user with a validated address on the given plan (an administrator with `admin`, made
   * with `parla admin grant`); answers its login token.
   */
  createUser(
    plan: 'FREE' | 'BASIC' | 'PREMIUM' | 'BUSINESS',
    options?: { admin?: boolean },
  ): Promise<string>;
  stop(): Promise<void>;
}

export async function startServer(): Promise<RunningServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-client-test-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
  };
  const child = spawn(process.execPath, [...FROM_SOURCE, SERVER_SOURCE], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timeout);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const baseUrl = await listening(child, (chunk) => {
      output += chunk;
      return LISTENING.exec(output)?.[1];
    });
    let counter = 0;
    const cli = (args: string[]) =>
      promisify(execFile)(process.execPath, [...FROM_SOURCE, RUN_MAIN, CLI_SOURCE, ...args], {
        cwd: ROOT,
        env,
      });
    const createUser = async (plan: string, options: { admin?: boolean } = {}) => {
      counter += 1;
      const email = `client-${process.pid}-${counter}@example.com`;
      const args = ['create-user', '--email', email, '--password', 'correct-horse-1'];
      const { stdout } = await cli([...args, '--plan', plan]);
      const issued = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { token?: unknown };
      if (typeof issued.token !== 'string')
        throw new Error(`create-user printed no token: ${stdout}`);
      if (options.admin) await cli(['admin', 'grant', email]);
      return issued.token;
    };
    return { baseUrl, createUser, stop };
  } catch (error) {
    await stop();
    throw new Error(`The server did not start: ${(error as Error).message}\n${output}`);
  }
}

/** Resolves with the base URL once the server says it listens; rejects if it exits first. */
function listening(
  child: ChildProcess,
  read: (chunk: string) => string | undefined,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no "Server listening" in 90 s')), 90_000);
    const onData = (chunk: Buffer) => {
      const url = read(chunk.toString());
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code}`));
    });
  });
}
