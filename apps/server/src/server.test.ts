import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listeningUrl, startServer } from './test/processes.js';

const dataRoot = mkdtempSync(path.join(tmpdir(), 'parla-process-'));
afterAll(() => rmSync(dataRoot, { recursive: true, force: true }));

describe('the server process', () => {
  it('starts on a bare DATA_DIR, serves, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = path.join(dataRoot, 'bare');
    const server = startServer({ DATA_DIR: dataDir });
    const url = await listeningUrl(server, 20_000);
    const health = await fetch(`${url}/api/ready`);
    expect(await health.json()).toEqual({ status: 'ready', database: true });
    expect(existsSync(path.join(dataDir, 'parla.sqlite'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output.text).toContain('shutting down');
  });

  it('logs one readable line per event with LOG_FORMAT=pretty', async () => {
    const server = startServer({ DATA_DIR: path.join(dataRoot, 'pretty'), LOG_FORMAT: 'pretty' });
    await listeningUrl(server, 20_000);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output.text).toMatch(/^\[[\d:.]+\] INFO \(\d+\): Server listening at /m);
    expect(server.output.text).not.toContain('{"level"');
  });

  it('refuses to start on a bad variable and names it, without a stack trace', async () => {
    const server = startServer({ DATA_DIR: path.join(dataRoot, 'bad'), PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output.text).toContain('Invalid configuration');
    expect(server.output.text).toContain('PORT: must be a whole number');
    expect(server.output.text).not.toMatch(/\n\s+at /);
  });
});
