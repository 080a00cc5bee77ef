import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JOB_ACTIVE_LIMITS } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  createTestApp,
  ownDatabaseUrl,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { createLocalStorage } from '../../lib/storage/local.js';
import { JOB_MESSAGES } from './messages.js';
import { createJobRepository } from './repository.js';
import { DOCUMENTS_PER_MINUTE } from './routes.js';

/*
 * Fair queues (issue 28, item 2; docs/decisions/036): jobs are claimed round robin by user, and
 * a user has a bounded number of jobs queued or running. No runner runs here: the test claims
 * as a runner does, through the repository. On PostgreSQL this file has a database of its own,
 * so that the jobs' own tests (whose runner claims any job) and this one take nothing of each
 * other's.
 */
const ownUrl = await ownDatabaseUrl('claims');
const app = await createTestApp({
  config: testConfig(ownUrl ? { DATABASE_URL: ownUrl } : {}),
});
await app.ready();
const jobs = createJobRepository(
  app.db,
  createLocalStorage(mkdtempSync(path.join(tmpdir(), 'parla-claims-'))),
);

/** Claims are told apart by when they began, to the millisecond. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

async function queue(authorization: string, title: string) {
  return app.inject({
    method: 'POST',
    url: '/api/jobs',
    headers: { authorization },
    payload: { title, text: `${title}.` },
  });
}

describe(`fair job queues (${TEST_DATABASE_KIND})`, () => {
  it('claims round robin by user: one user with many queued jobs does not hold back another', async () => {
    const a = await signedInUser(app, { plan: 'BUSINESS' });
    const b = await signedInUser(app, { plan: 'BUSINESS' });
    const c = await signedInUser(app, { plan: 'BUSINESS' });
    for (let i = 1; i <= 5; i++)
      expect((await queue(a.authorization, `A${i}`)).statusCode).toBe(202);
    expect((await queue(b.authorization, 'B1')).statusCode).toBe(202);
    expect((await queue(c.authorization, 'C1')).statusCode).toBe(202);
    expect((await queue(b.authorization, 'B2')).statusCode).toBe(202);
    const lease = { owner: 'runner-1', ms: 60_000 };
    // One runner, one job at a time: each claimed job ends before the next claim.
    const order: string[] = [];
    for (let job = await jobs.claim(lease); job; job = await jobs.claim(lease)) {
      order.push(job.title);
      expect(await jobs.finish(job.id, lease, { status: 'done' })).toBe(true);
      await nextMillisecond();
    }
    expect(order).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'A4', 'A5']);
  }, 60_000);

  it('prefers the users with no job being rendered when several runners claim at once', async () => {
    const a = await signedInUser(app, { plan: 'BUSINESS' });
    const b = await signedInUser(app, { plan: 'BUSINESS' });
    for (let i = 1; i <= 3; i++) await queue(a.authorization, `A${i}`);
    await queue(b.authorization, 'B1');
    const first = await jobs.claim({ owner: 'runner-1', ms: 60_000 });
    await nextMillisecond();
    const second = await jobs.claim({ owner: 'runner-2', ms: 60_000 });
    await nextMillisecond();
    const third = await jobs.claim({ owner: 'runner-3', ms: 60_000 });
    expect([first?.title, second?.title, third?.title]).toEqual(['A1', 'B1', 'A2']);
  }, 60_000);

  it("caps a user's queued and running jobs by plan, naming the cap (429)", async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const cap = JOB_ACTIVE_LIMITS.BASIC;
    const ids: string[] = [];
    for (let i = 0; i < cap; i++) {
      const created = await queue(authorization, `Job ${i}`);
      expect(created.statusCode).toBe(202);
      ids.push(created.json().id);
    }
    const refused = await queue(authorization, 'One more');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: JOB_MESSAGES.tooManyActive(cap, 'BASIC') });
    expect(refused.json().message).toBe(
      'You have 3 jobs queued or running, as many as the BASIC plan allows at once; wait for one to finish or cancel one.',
    );
    // A document is refused before it is read.
    const boundary = 'cap';
    const document = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nHi.\r\n--${boundary}--\r\n`,
    });
    expect(document.statusCode).toBe(429);
    // One cancelled makes room for one more.
    await app.inject({ method: 'DELETE', url: `/api/jobs/${ids[0]}`, headers: { authorization } });
    expect((await queue(authorization, 'One more')).statusCode).toBe(202);
    expect((await queue(authorization, 'And another')).statusCode).toBe(429);
  });

  it('holds the cap under a burst: of 12 jobs sent at once, as many as the plan allows are queued', async () => {
    const { authorization, user } = await signedInUser(app, { plan: 'BASIC' });
    const cap = JOB_ACTIVE_LIMITS.BASIC;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => queue(authorization, `Burst ${i}`)),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([...Array(cap).fill(202), ...Array(12 - cap).fill(429)]);
    for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
      expect(refused.json()).toEqual({ message: JOB_MESSAGES.tooManyActive(cap, 'BASIC') });
    }
    expect(await jobs.activeCount(user.id)).toBe(cap);
  });
});

/** A multipart body with one document. */
function upload(name: string, body: string) {
  const boundary = 'doc';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${body}\r\n--${boundary}--\r\n`,
  };
}

describe(`documents sent to be read (${TEST_DATABASE_KIND})`, () => {
  it('answers deep Markdown with a 422 naming the limit (marked overflowed its stack: 500)', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const deep = upload('quotes.md', `${'>'.repeat(200_000)} deep`);
    const response = await app.inject({
      method: 'POST',
      url: '/api/jobs/preview',
      headers: { authorization, ...deep.headers },
      payload: deep.payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message:
        'quotes.md nests block quotes or lists more than 32 deep; a document may nest them 32 deep.',
    });
  });

  it('reads one document at a time for a user, and so many a minute', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const preview = (text = '# Notes\n\nSome words to read.') => {
      const document = upload('notes.md', text);
      return app.inject({
        method: 'POST',
        url: '/api/jobs/preview',
        headers: { authorization, ...document.headers },
        payload: document.payload,
      });
    };
    // A long document, then a short one while it is being read (a tenth of a second later:
    // reading a few notes took less than two requests' database round trips on PostgreSQL).
    const long = `# Notes\n\n${'Many words to read, one paragraph after another.\n\n'.repeat(20_000)}`;
    const both = await Promise.all([
      preview(long),
      new Promise((resolve) => setTimeout(resolve, 100)).then(() => preview()),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 429]);
    expect(both[1]?.json()).toEqual({ message: JOB_MESSAGES.readingOne });
    // The rate limit: DOCUMENTS_PER_MINUTE in all (the two above count), then 429.
    for (let sent = 2; sent < DOCUMENTS_PER_MINUTE; sent++) {
      expect((await preview()).statusCode).toBe(200);
    }
    const limited = await preview();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many requests/);
  }, 60_000);
});
