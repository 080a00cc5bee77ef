import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileMediaQuery } from '@parla/contract';
import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listeningUrl, type Process, startCli, startServer, waitFor } from '../test/processes.js';
import { TEST_REDIS_URL, testRedis } from '../test/redis.js';
import { startS3 } from '../test/s3.js';
import { voiceSettings } from '../test/voice-settings.js';
import { CONVERSIONS_PER_MINUTE } from './lib/limits.js';
import { RedisClients } from './lib/redis.js';
import { SCHEDULE_QUEUE } from './lib/schedule.js';
import { createS3Storage } from './lib/storage/s3.js';

/*
 * Issue 17, item 4: two server processes and a `parla worker` on one PostgreSQL, one Redis and
 * one S3-compatible store, behind a round-robin proxy, behave as one server.
 */
const databaseUrl = inject('databaseUrl');
const redis = await testRedis('the multi-server test');
const runs = Boolean(databaseUrl) && redis.reachable;
if (!databaseUrl)
  console.warn('\n!!!!! SKIPPED: the multi-server test runs on the PostgreSQL leg. !!!!!\n');

/** Round robin over the servers still in rotation, as a load balancer does; names who answered. */
function startProxy(backends: Map<string, string>) {
  let next = 0;
  const server = http.createServer((request, response) => {
    const names = [...backends.keys()];
    const name = names[next++ % names.length] ?? '';
    const target = new URL(request.url ?? '/', backends.get(name));
    const forward = http.request(
      target,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': name });
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { 'x-served-by': name });
      response.end();
    });
    request.pipe(forward);
  });
  // Longer than fetch keeps an idle connection: the proxy never closes one a test is about
  // to reuse (which fetch reports as ECONNRESET).
  server.keepAliveTimeout = 60_000;
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

describe.runIf(runs)('several servers on PostgreSQL, Redis and S3', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'parla-cluster-'));
  const processes: Process[] = [];
  const backends = new Map<string, string>();
  let s3: Awaited<ReturnType<typeof startS3>>;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let env: Record<string, string>;
  let workerDataDir: string;
  let servers: Record<'A' | 'B', Process>;

  beforeAll(async () => {
    s3 = await startS3();
    env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: redis.prefix,
      JWT_SECRET: randomUUID() + randomUUID(),
      // The database is shared with the other test files, whose jobs are theirs to render.
      JOB_RUNNER: 'off',
      ...s3.env,
    };
    const start = (name: string) => {
      const server = startServer({ ...env, DATA_DIR: path.join(root, name) });
      processes.push(server);
      return server;
    };
    // A release runs the migrations once, then starts the servers.
    const migrate = startCli(['migrate'], { ...env, DATA_DIR: path.join(root, 'release') });
    expect(await migrate.exited, migrate.output.text).toBe(0);
    servers = { A: start('A'), B: start('B') };
    for (const [name, server] of Object.entries(servers)) {
      backends.set(name, await listeningUrl(server, 150_000));
    }
    workerDataDir = path.join(root, 'worker');
    const worker = startCli(['worker'], { ...env, DATA_DIR: workerDataDir });
    processes.push(worker);
    await waitFor(() => worker.output.text.includes('taking requests'), 150_000);
    proxy = await startProxy(backends);
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    for (const process of processes) process.child.kill('SIGKILL');
    await Promise.all(processes.map((process) => process.exited));
    await s3?.close();
    rmSync(root, { recursive: true, force: true });
  }, 60_000);

  const call = (url: string, init: RequestInit = {}) => fetch(`${proxy.url}${url}`, init);
  const convert = (text: string, headers: Record<string, string> = {}) =>
    call('/api/convertor', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(voiceSettings({ text })),
    });
  /** The same request to each server in turn: answers who answered what. */
  async function fromEach(url: string, init: RequestInit = {}) {
    const answers = [];
    for (let i = 0; i < backends.size; i += 1) {
      const response = await call(url, init);
      answers.push({
        by: response.headers.get('x-served-by'),
        status: response.status,
        bytes: Buffer.from(await response.arrayBuffer()),
      });
    }
    expect(new Set(answers.map((a) => a.by)).size).toBe(backends.size);
    return answers;
  }

  async function paidUser(plan = 'PREMIUM') {
    const email = `cluster-${randomUUID()}@example.com`;
    const created = startCli(
      ['create-user', '--email', email, '--password', 'secret-123', '--plan', plan],
      { ...env, DATA_DIR: path.join(root, 'release') },
    );
    expect(await created.exited, created.output.text).toBe(0);
    const { token } = JSON.parse(created.output.text.trim().split('\n').pop() ?? '') as {
      token: string;
    };
    return { authorization: `Bearer ${token}` };
  }

  const acknowledged: Array<{ path: string; bytes: Buffer }> = [];

  /** Saves audio as the Save button does; answers the file's id. */
  async function saveFile(authorization: string, audio: Buffer): Promise<string> {
    const form = new FormData();
    form.append('media', new Blob([audio], { type: 'audio/wav' }), 'audio.wav');
    const query = new URLSearchParams(fileMediaQuery(voiceSettings())).toString();
    const saved = await call(`/api/file/media?${query}`, {
      method: 'POST',
      headers: { authorization, 'x-requested-with': 'parla' },
      body: form,
    });
    expect(saved.status).toBe(200);
    return ((await saved.json()) as { _id: string })._id;
  }

  /** Polls until `done` holds (a job another process runs), for at most half a minute. */
  async function eventually(done: () => Promise<boolean>) {
    const deadline = Date.now() + 30_000;
    while (!(await done()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(await done()).toBe(true);
  }

  it('converts on one server and serves the audio, whole and by range, from every server', async () => {
    for (const text of ['Converted on one server.', 'And heard from the other.']) {
      const response = await convert(text);
      expect(response.status).toBe(200);
      const { path: audioPath } = (await response.json()) as { path: string };
      const answers = await fromEach(audioPath);
      for (const answer of answers) expect(answer.status).toBe(200);
      const [first, second] = answers;
      expect(first?.bytes.toString('latin1', 0, 4)).toBe('RIFF');
      expect(first?.bytes.equals(second?.bytes ?? Buffer.alloc(0))).toBe(true);
      const ranges = await fromEach(audioPath, { headers: { range: 'bytes=10-109' } });
      for (const range of ranges) {
        expect(range.status).toBe(206);
        expect(range.bytes.equals(first?.bytes.subarray(10, 110) ?? Buffer.alloc(0))).toBe(true);
      }
      acknowledged.push({ path: audioPath, bytes: first?.bytes ?? Buffer.alloc(0) });
    }
  }, 90_000);

  it('saves, lists, downloads and deletes a file the same whichever server answers', async () => {
    const { authorization } = await paidUser();
    const audio = acknowledged[0]?.bytes ?? Buffer.alloc(0);
    const id = await saveFile(authorization, audio);

    for (const list of await fromEach('/api/file', { headers: { authorization } })) {
      expect(JSON.parse(list.bytes.toString()).map((f: { _id: string }) => f._id)).toEqual([id]);
    }
    for (const media of await fromEach(`/api/file/media/${id}`, { headers: { authorization } })) {
      expect(media.status).toBe(200);
      expect(media.bytes.equals(audio)).toBe(true);
    }
    const deleted = await call(`/api/file/${id}`, {
      method: 'DELETE',
      headers: { authorization, 'x-requested-with': 'parla' },
    });
    expect(deleted.status).toBe(200);
    for (const media of await fromEach(`/api/file/media/${id}`, { headers: { authorization } })) {
      expect(media.status).toBe(404);
    }
    const bucket = createS3Storage(s3.options);
    try {
      expect(await bucket.list('saved')).toEqual([]);
    } finally {
      bucket.close();
    }
  }, 90_000);

  it('keeps one schedule per installation; whichever server runs the expiry and the purge removes rows and objects', async () => {
    const queue = new Queue(SCHEDULE_QUEUE, {
      connection: new RedisClients(TEST_REDIS_URL).connection(),
      prefix: redis.prefix,
    });
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const bucket = createS3Storage(s3.options);
    try {
      // Two servers declared the same five schedules: Redis holds one of each.
      const schedules = await queue.getJobSchedulers();
      expect(schedules.map((s) => s.key).sort()).toEqual([
        'audio-expiry',
        'content-publication',
        'conversion-recovery',
        'job-purge',
        'saved-file-purge',
      ]);

      const response = await convert('Soon to expire.');
      const { path: audioPath } = (await response.json()) as { path: string };
      const file = audioPath.split('/').pop() ?? '';
      const id = file.split('.')[0];
      expect(await bucket.stat(`audio/${file}`)).toBeDefined();
      await db.query(
        "update conversions set expires_at = '2000-01-01T00:00:00.000Z' where id = $1",
        [id],
      );
      // What the scheduler does every five minutes, now: one job, for whichever server.
      await queue.add('audio-expiry', {});
      await eventually(async () => !(await bucket.stat(`audio/${file}`)));
      expect((await db.query('select id from conversions where id = $1', [id])).rowCount).toBe(0);
      for (const answer of await fromEach(audioPath)) expect(answer.status).toBe(404);

      // A saved file 31 days after its last save goes, row and object, on the hourly purge.
      const { authorization } = await paidUser();
      const fileId = await saveFile(authorization, acknowledged[0]?.bytes ?? Buffer.alloc(0));
      expect(await bucket.list('saved')).toHaveLength(1);
      await db.query("update files set updated_at = '2000-01-01T00:00:00.000Z' where id = $1", [
        fileId,
      ]);
      await queue.add('saved-file-purge', {});
      await eventually(async () => (await bucket.list('saved')).length === 0);
      expect((await db.query('select id from files where id = $1', [fileId])).rowCount).toBe(0);
      for (const answer of await fromEach('/api/file', { headers: { authorization } })) {
        expect(JSON.parse(answer.bytes.toString())).toEqual([]);
      }
    } finally {
      bucket.close();
      await db.end();
      await queue.close();
    }
  }, 90_000);

  it('renders on the parla worker too, for requests made to either server', async () => {
    // More requests at once than the servers' own render slots: the worker takes some. A
    // BUSINESS user's: its 12 conversions at once across the installation allow the 10
    // (an anonymous address has 3, decision 042).
    const { authorization } = await paidUser('BUSINESS');
    const texts = Array.from(
      { length: 10 },
      (_, i) => `Request number ${i} of a batch that keeps every worker busy for a moment or two.`,
    );
    const responses = await Promise.all(texts.map((text) => convert(text, { authorization })));
    expect(responses.map((r) => r.status)).toEqual(texts.map(() => 200));
    expect(new Set(responses.map((r) => r.headers.get('x-served-by')))).toEqual(
      new Set(['A', 'B']),
    );
    // The worker's own speech cache holds what it rendered.
    expect(
      readdirSync(path.join(workerDataDir, 'cache', 'speech'), { recursive: true }).length,
    ).toBeGreaterThan(0);
  }, 120_000);

  it('counts a rate limit once for the installation, whichever server answers', async () => {
    const { authorization } = await paidUser('FREE');
    const statuses: number[] = [];
    const servedBy = new Set<string | null>();
    // Invalid requests (cheap) count as conversions started; the limit is per user.
    for (let i = 0; i <= CONVERSIONS_PER_MINUTE.FREE; i += 1) {
      const response = await call('/api/convertor', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      statuses.push(response.status);
      servedBy.add(response.headers.get('x-served-by'));
    }
    expect(servedBy).toEqual(new Set(['A', 'B']));
    expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  }, 90_000);

  it('loses nothing acknowledged when a server is killed mid-conversion', async () => {
    const { authorization } = await paidUser();
    const batch = Array.from({ length: 6 }, (_, i) =>
      convert(
        // Long enough (about 1,700 characters) to be still rendering 300 ms after it is sent.
        `Request ${i}. ${'Still converting when a server dies, a few words more. '.repeat(30)}`,
        {
          authorization,
        },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    servers.A.child.kill('SIGKILL');
    await servers.A.exited;
    // The load balancer's health check takes the dead server out of rotation.
    backends.delete('A');
    const answers = await Promise.all(batch);
    // Every request to the surviving server succeeds, even one the dead server's worker was
    // rendering (it goes back to the queue when its lock lapses); the dead server's own requests
    // were never acknowledged.
    for (const answer of answers) {
      expect(answer.status).toBe(answer.headers.get('x-served-by') === 'B' ? 200 : 502);
    }
    const done = answers.filter((answer) => answer.status === 200);
    expect(done.length).toBe(3);
    for (const answer of done) {
      const { path: audioPath } = (await answer.json()) as { path: string };
      const audio = await call(audioPath);
      expect(audio.status).toBe(200);
      expect(Buffer.from(await audio.arrayBuffer()).toString('latin1', 0, 4)).toBe('RIFF');
    }
    for (const earlier of acknowledged) {
      const audio = await call(earlier.path);
      expect(audio.status).toBe(200);
      expect(Buffer.from(await audio.arrayBuffer()).equals(earlier.bytes)).toBe(true);
    }
  }, 120_000);

  it('a server told to stop (SIGTERM) finishes the conversions in flight before it exits', async () => {
    const { authorization } = await paidUser();
    const batch = Array.from({ length: 2 }, (_, i) =>
      // Sentences of their own (the sentence cache answers a repeated one at once), about
      // 3,000 characters: longer to render than the wait below.
      convert(
        Array.from(
          { length: 60 },
          (_, k) => `Finished before the end, part ${k + 1} of ${i + 1}, run ${randomUUID()}.`,
        ).join(' '),
        { authorization },
      ),
    );
    // B has its request (the proxy sends one to each server).
    const arrived = () => servers.B.output.text.split('"url":"/api/convertor"').length - 1;
    const before = arrived();
    await waitFor(() => arrived() > before, 10_000);
    servers.B.child.kill('SIGTERM');
    const answers = await Promise.all(batch);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // Still in flight when the signal came (not a timing claim: an ordering one).
    expect(servers.B.output.text.indexOf('shutting down')).toBeLessThan(
      servers.B.output.text.lastIndexOf('"statusCode":200'),
    );
    expect(await servers.B.exited).toBe(0);
    expect(servers.B.output.text).toContain('shutting down');
  }, 120_000);
});
