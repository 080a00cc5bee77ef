import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverSource = fileURLToPath(new URL('./server.ts', import.meta.url));
const dataRoot = mkdtempSync(path.join(tmpdir(), 'parla-process-'));
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

/** Runs the real entry point (from source, through tsx) as its own process. */
function startServer(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions=@parla/source', '--import', 'tsx', serverSource], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function collect(child: ChildProcess) {
  const output = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.text += chunk.toString();
  });
  return output;
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the server process', () => {
  it('starts on a bare DATA_DIR, serves, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = path.join(dataRoot, 'bare');
    const child = startServer({ DATA_DIR: dataDir });
    const output = collect(child);
    await waitFor(() => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(output.text), 20_000);
    const port = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output.text)?.[1];
    const health = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(await health.json()).toEqual({ status: 'ready', database: true });
    expect(existsSync(path.join(dataDir, 'parla.sqlite'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(output.text).toContain('shutting down');
  });

  it('refuses to start on a bad variable and names it, without a stack trace', async () => {
    const child = startServer({ DATA_DIR: path.join(dataRoot, 'bad'), PORT: 'eighty' });
    const output = collect(child);
    expect(await exited(child)).toBe(1);
    expect(output.text).toContain('Invalid configuration');
    expect(output.text).toContain('PORT: must be a whole number');
    expect(output.text).not.toMatch(/\n\s+at /);
  });
});
