import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { JOB_SIGN_IN_MESSAGE, type Job } from '@parla/contract';
import { decodeOgg } from '@parla/speech/testing';
import JSZip from 'jszip';
import { parseBuffer } from 'music-metadata';
import NodeID3 from 'node-id3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { EPUB_CHAPTERS, makeEpub } from '../../../test/documents.js';
import { listeningUrl, type Process, startServer } from '../../../test/processes.js';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  signedInUser,
  TEST_DATABASE_KIND,
  testConfig,
} from '../../../test/test-app.js';
import { JOB_MESSAGES } from './routes.js';

/** Jobs (issue 19): long texts and documents rendered in parts, resumed, charged once. */
const smtp = await startSmtpServer();
const config = testConfig({
  JOB_RUNNER: 'on',
  SMTP_URL: smtp.url,
  PUBLIC_URL: 'https://parla.test',
});
// Every job's end is mailed here (in use, only those that ran a minute or more).
const runner = { leaseMs: 1500, pollMs: 100, mailAfterMs: 0 };
const app = await createTestApp({ config, jobRunner: runner });
await app.ready();

type App = typeof app;

/** Real server processes started by the last test, stopped whatever happens. */
const servers: Process[] = [];
afterAll(() => {
  for (const server of servers) server.child.kill('SIGKILL');
});

/** Distinct sentences, `count` of them (about 60 characters each). */
const sentences = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `This is sentence ${i + 1} of the ${label} part.`).join(
    ' ',
  );

async function remaining(on: App, authorization: string): Promise<number> {
  const response = await on.inject({
    method: 'GET',
    url: '/api/account/profile',
    headers: { authorization },
  });
  return (response.json() as { plan: { count_characters: number } }).plan.count_characters;
}

async function job(on: App, authorization: string, id: string): Promise<Job> {
  const response = await on.inject({
    method: 'GET',
    url: `/api/jobs/${id}`,
    headers: { authorization },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as Job;
}

/** The objects stored for a job (folders left empty do not count). */
async function storedFiles(id: string): Promise<string[]> {
  return (
    await readdir(path.join(config.dataDir, 'files', 'jobs', id), {
      recursive: true,
      withFileTypes: true,
    }).catch(() => [])
  )
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

async function until(
  on: App,
  authorization: string,
  id: string,
  done: (job: Job) => boolean,
  seconds = 90,
): Promise<Job> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const current = await job(on, authorization, id);
    if (done(current)) return current;
    if (Date.now() > end || current.status === 'failed') {
      throw new Error(
        `job ${id} still ${current.status}${current.error ? `: ${current.error}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The samples of a WAV file (16-bit mono, after its `data` chunk's header), from -1 to 1. */
function wavSamples(bytes: Buffer): Float32Array {
  let at = 12;
  while (bytes.toString('latin1', at, at + 4) !== 'data') at += 8 + bytes.readUInt32LE(at + 4);
  const data = bytes.subarray(at + 8);
  const samples = new Float32Array(Math.floor(data.length / 2));
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2) / 32768;
  return samples;
}

/** The silent stretches of some audio (below -50 dBFS for 50 ms or more), in seconds. */
function silences(samples: Float32Array, rate: number): [number, number][] {
  const quiet: [number, number][] = [];
  let from: number | undefined;
  for (let i = 0; i <= samples.length; i++) {
    const silent = i < samples.length && Math.abs(samples[i] as number) < 0.003;
    if (silent && from === undefined) from = i;
    if (!silent && from !== undefined) {
      if (i - from >= rate * 0.05) quiet.push([from / rate, i / rate]);
      from = undefined;
    }
  }
  return quiet;
}

function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const boundary = `----parla${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe(`jobs (${TEST_DATABASE_KIND})`, { timeout: 180_000 }, () => {
  it('renders chapters of text into one mp3 with ID3 chapters, marks and subtitles, charged once', async () => {
    const { authorization, user } = await signedInUser(app, { plan: 'BUSINESS' });
    const before = await remaining(app, authorization);
    const chapters = [
      { title: 'Morning', text: 'The sun rose over the hills. Birds began to sing.' },
      { title: 'Noon', text: 'At noon the market was full of voices.' },
      { title: 'Night', text: 'Then the lights went out, one by one.' },
    ];
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: {
        title: 'A Day',
        chapters,
        output_format: 'mp3',
        language_code: 'en-US',
        engine: 'standard',
      },
    });
    expect(created.statusCode).toBe(202);
    const { id, status } = created.json() as { id: string; status: string };
    expect(status).toBe('queued');
    const done = await until(app, authorization, id, (j) => j.status === 'done');
    // Each chapter is read from its title on, and charged so.
    const read = chapters.map((c) => `${c.title}.\n\n${c.text}`);
    const characters = read.reduce((sum, text) => sum + text.length, 0);
    expect(done).toMatchObject({
      title: 'A Day',
      source: 'text',
      characters,
      progress: {
        fraction: 1,
        characters_done: characters,
        chapters_done: 3,
        chapters: 3,
        seconds_left: null,
      },
      path: `/api/jobs/${id}/audio`,
      marks_path: `/api/jobs/marks/${id}`,
      subtitles_path: `/api/jobs/subtitles/${id}`,
      error: null,
      engine: 'standard',
      language_code: 'en-us',
      // Names from the voice catalogue, for File History.
      language: 'English (US)',
    });
    expect(done.voice).not.toBe(done.voice_id);
    expect(done.finished_at).not.toBeNull();
    expect(done.chapters.map((c) => c.title)).toEqual(['Morning', 'Noon', 'Night']);
    const starts = done.chapters.map((c) => c.start ?? -1);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBeGreaterThan(2);
    expect(starts[2]).toBeGreaterThan(starts[1] as number);
    expect(await remaining(app, authorization)).toBe(before - characters);

    const audio = await app.inject({
      method: 'GET',
      url: done.path ?? '',
      headers: { authorization },
    });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    const bytes = audio.rawPayload;
    expect(done.size).toBe(bytes.byteLength);
    const { format } = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { duration: true });
    expect(format.duration).toBeGreaterThan((done.duration ?? 0) - 0.5);
    expect(format.duration).toBeLessThan((done.duration ?? 0) + 1);
    const tags = NodeID3.read(bytes);
    expect(tags.title).toBe('A Day');
    expect(tags.chapter?.map((c) => [c.tags?.title, Math.round(c.startTimeMs / 100)])).toEqual(
      chapters.map((c, i) => [c.title, Math.round((starts[i] as number) * 10)]),
    );
    expect(tags.tableOfContents?.[0]?.elements).toEqual(['chp0', 'chp1', 'chp2']);

    // Words of every chapter, at times past the chapter's start, pointing at their text.
    const marks = (
      await app.inject({ method: 'GET', url: done.marks_path ?? '', headers: { authorization } })
    ).json() as { time: number; type: string; start: number; end: number; value: string }[];
    const text = read.join('\n\n');
    const words = marks.filter((m) => m.type === 'word');
    expect(words.length).toBeGreaterThanOrEqual(20);
    for (const word of words) expect(text.slice(word.start, word.end)).toBe(word.value);
    const market = words.find((w) => w.value === 'market');
    expect(market?.time).toBeGreaterThan((starts[1] as number) * 1000);
    const vtt = await app.inject({
      method: 'GET',
      url: done.subtitles_path ?? '',
      headers: { authorization },
    });
    expect(vtt.body).toMatch(/^WEBVTT/);
    expect(vtt.body).toContain('At noon the market was full of voices.');

    const list = await app.inject({ method: 'GET', url: '/api/jobs', headers: { authorization } });
    expect((list.json() as Job[]).map((j) => j.id)).toEqual([id]);
    // Each chapter as a file of its own, and the text that was read.
    const zipped = await app.inject({
      method: 'GET',
      url: done.chapters_path ?? '',
      headers: { authorization },
    });
    expect(zipped.headers['content-type']).toBe('application/zip');
    const zip = await JSZip.loadAsync(zipped.rawPayload);
    const names = Object.keys(zip.files);
    expect(names).toEqual(['1 Morning.mp3', '2 Noon.mp3', '3 Night.mp3']);
    for (const [index, name] of names.entries()) {
      const file = Buffer.from((await zip.file(name)?.async('uint8array')) ?? []);
      const { format: chapter } = await parseBuffer(
        file,
        { mimeType: 'audio/mpeg' },
        { duration: true },
      );
      const length =
        ((starts[index + 1] ?? done.duration ?? 0) as number) - (starts[index] as number);
      expect(chapter.duration).toBeGreaterThan(length - 0.3);
      expect(chapter.duration).toBeLessThan(length + 0.3);
      expect(NodeID3.read(file).title).toBe(chapters[index]?.title);
    }
    const readText = await app.inject({
      method: 'GET',
      url: done.text_path ?? '',
      headers: { authorization },
    });
    expect(readText.body).toBe(text);
    const mail = await smtp.mailTo(user.email);
    expect(mail.subject).toBe('Your audiobook "A Day" is ready');
    expect(mail.text).toContain('https://parla.test/documents');

    // Deleted (from File History or the API): the job and all its files go, another user's
    // delete finds nothing, and the characters stay charged.
    const stranger = await signedInUser(app, { plan: 'BUSINESS' });
    const notTheirs = await app.inject({
      method: 'DELETE',
      url: `/api/jobs/${id}`,
      headers: { authorization: stranger.authorization },
    });
    expect(notTheirs.statusCode).toBe(404);
    expect((await storedFiles(id)).length).toBeGreaterThan(0);
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/jobs/${id}`,
      headers: { authorization },
    });
    expect(deleted.json()).toEqual({ message: JOB_MESSAGES.deleted });
    expect(await storedFiles(id)).toEqual([]);
    const gone = await app.inject({
      method: 'GET',
      url: `/api/jobs/${id}`,
      headers: { authorization },
    });
    expect(gone.statusCode).toBe(404);
    expect(await remaining(app, authorization)).toBe(before - characters);
    // The console's overview still counts it (decision 053).
    const logged = await app.db
      .selectFrom('usage_log')
      .select(['source', 'status', 'engine', 'voice', 'language', 'characters', 'duration'])
      .where('user_id', '=', user.id)
      .execute();
    expect(logged).toEqual([
      {
        source: 'job',
        status: 'succeeded',
        engine: 'standard',
        voice: done.voice_id,
        language: 'en-us',
        characters,
        duration: done.duration,
      },
    ]);
  });

  it('renders an Ogg Vorbis audiobook: one stream with chapter comments, and each chapter as a file', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const chapters = [
      { title: 'Morning', text: 'The sun rose over the hills. Birds began to sing.' },
      { title: 'Noon', text: 'At noon the market was full of voices.' },
    ];
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { title: 'A Day', chapters, output_format: 'ogg', sample_rate: 24000 },
    });
    expect(created.statusCode).toBe(202);
    const { id } = created.json() as { id: string };
    const done = await until(app, authorization, id, (j) => j.status === 'done');
    const starts = done.chapters.map((c) => c.start ?? -1);
    expect(starts[1]).toBeGreaterThan(2);
    const audio = await app.inject({
      method: 'GET',
      url: done.path ?? '',
      headers: { authorization },
    });
    expect(audio.headers['content-type']).toBe('audio/ogg');
    const bytes = audio.rawPayload;
    expect(done.size).toBe(bytes.byteLength);
    // One logical stream (not Ogg files put end to end): it decodes whole, as long as the job.
    const decoded = await decodeOgg(bytes);
    expect(decoded.sampleRate).toBe(24000);
    expect(decoded.samples.length / 24000).toBeCloseTo(done.duration ?? 0, 1);
    const { format, native } = await parseBuffer(
      bytes,
      { mimeType: 'audio/ogg' },
      { duration: true },
    );
    expect(format.codec).toBe('Vorbis I');
    const tags = Object.fromEntries((native.vorbis ?? []).map((t) => [t.id, t.value]));
    const clock = (seconds: number) =>
      new Date(Math.round(seconds * 1000)).toISOString().slice(11, 23);
    expect(tags).toMatchObject({
      TITLE: 'A Day',
      CHAPTER001: '00:00:00.000',
      CHAPTER001NAME: 'Morning',
      CHAPTER002: clock(starts[1] as number),
      CHAPTER002NAME: 'Noon',
    });
    // Each chapter as a file of its own, in the zip.
    const zipped = await app.inject({
      method: 'GET',
      url: done.chapters_path ?? '',
      headers: { authorization },
    });
    const zip = await JSZip.loadAsync(zipped.rawPayload);
    expect(Object.keys(zip.files)).toEqual(['1 Morning.ogg', '2 Noon.ogg']);
    for (const [index, name] of Object.keys(zip.files).entries()) {
      const file = Buffer.from((await zip.file(name)?.async('uint8array')) ?? []);
      const chapter = await decodeOgg(file);
      const length =
        ((starts[index + 1] ?? done.duration ?? 0) as number) - (starts[index] as number);
      expect(chapter.samples.length / 24000).toBeCloseTo(length, 1);
      const parsed = await parseBuffer(file, { mimeType: 'audio/ogg' });
      expect(parsed.common.title).toBe(chapters[index]?.title);
      expect(parsed.common.album).toBe('A Day');
    }
    // Marks over the whole, as for mp3.
    const marks = (
      await app.inject({ method: 'GET', url: done.marks_path ?? '', headers: { authorization } })
    ).json() as { time: number; type: string; value: string }[];
    expect(marks.find((m) => m.value === 'market')?.time).toBeGreaterThan(
      (starts[1] as number) * 1000,
    );
  });

  it('reads each chapter title at its start and pauses between chapters (1.5 s unless asked)', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const chapters = [
      { title: 'Morning', text: 'The sun rose over the hills. Birds began to sing.' },
      { title: 'The Noon Market', text: 'At noon the market was full of voices.' },
      { title: 'Night Falls', text: 'Then the lights went out, one by one.' },
    ];
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { title: 'A Day', chapters, output_format: 'wav', sample_rate: 16000 },
    });
    expect(created.statusCode).toBe(202);
    const { id } = created.json() as { id: string };
    const done = await until(app, authorization, id, (j) => j.status === 'done');
    const starts = done.chapters.map((c) => c.start ?? -1);
    const audio = await app.inject({
      method: 'GET',
      url: done.path ?? '',
      headers: { authorization },
    });
    const samples = wavSamples(audio.rawPayload);
    expect(samples.length / 16000).toBeCloseTo(done.duration ?? 0, 1);
    // The silences of 1.4 s or more are the pauses between chapters, each ending where the
    // next chapter starts.
    const long = silences(samples, 16000).filter(([from, to]) => to - from >= 1.4);
    expect(long).toHaveLength(chapters.length - 1);
    for (const [index, [from, to]] of long.entries()) {
      const next = starts[index + 1] as number;
      expect(from).toBeLessThan(next);
      expect(to).toBeGreaterThanOrEqual(next - 0.05);
    }
    // Each chapter's first words are its title, in the speech marks and the text read.
    const marks = (
      await app.inject({ method: 'GET', url: done.marks_path ?? '', headers: { authorization } })
    ).json() as { time: number; type: string; value: string }[];
    const words = marks.filter((m) => m.type === 'word');
    for (const [index, chapter] of chapters.entries()) {
      const titleWords = chapter.title.split(' ');
      const first = words
        .filter((w) => w.time >= (starts[index] as number) * 1000 - 50)
        .slice(0, titleWords.length)
        .map((w) => w.value);
      expect(first).toEqual(titleWords);
    }
    const read = await app.inject({
      method: 'GET',
      url: done.text_path ?? '',
      headers: { authorization },
    });
    expect(read.body).toBe(chapters.map((c) => `${c.title}.\n\n${c.text}`).join('\n\n'));

    // Asked otherwise (as the Documents page sends it, in form fields): no titles, 0.5 s.
    const body = multipart(
      {
        output_format: 'wav',
        sample_rate: '16000',
        speak_chapter_titles: 'false',
        chapter_pause: '0.5',
      },
      { name: 'tales.epub', bytes: await makeEpub() },
    );
    const quiet = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...body.headers },
      payload: body.payload,
    });
    expect(quiet.statusCode).toBe(202);
    const plain = await until(
      app,
      authorization,
      (quiet.json() as { id: string }).id,
      (j) => j.status === 'done',
    );
    expect(plain.characters).toBe(EPUB_CHAPTERS.reduce((sum, [, text]) => sum + text.length, 0));
    const plainAudio = await app.inject({
      method: 'GET',
      url: plain.path ?? '',
      headers: { authorization },
    });
    const gaps = silences(wavSamples(plainAudio.rawPayload), 16000).map(([from, to]) => to - from);
    expect(gaps.filter((gap) => gap >= 1.4)).toEqual([]);
    expect(gaps.filter((gap) => gap >= 0.45).length).toBeGreaterThanOrEqual(
      EPUB_CHAPTERS.length - 1,
    );
    const plainMarks = (
      await app.inject({ method: 'GET', url: plain.marks_path ?? '', headers: { authorization } })
    ).json() as { type: string; value: string }[];
    expect(plainMarks.find((m) => m.type === 'word')?.value).toBe('Boats');
  });

  it('says words the way the lexicons it names say them', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const lexicon = await app.inject({
      method: 'PUT',
      url: '/api/lexicons/Names',
      headers: { authorization },
      payload: {
        language: 'en-US',
        entries: [{ grapheme: 'Nguyen', alias: 'the one name nobody here can ever say right' }],
      },
    });
    expect(lexicon.statusCode).toBe(201);
    const start = async (names: string[]) => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/jobs',
        headers: { authorization },
        payload: {
          text: 'I met Nguyen.',
          output_format: 'wav',
          engine: 'standard',
          language_code: 'en-US',
          lexicon_names: names,
        },
      });
      expect(created.statusCode).toBe(202);
      return (created.json() as { id: string }).id;
    };
    const plain = await until(app, authorization, await start([]), (j) => j.status === 'done');
    const said = await until(
      app,
      authorization,
      await start(['Names']),
      (j) => j.status === 'done',
    );
    // The alias is many words longer than the name.
    expect(said.duration ?? 0).toBeGreaterThan(2 * (plain.duration ?? 0));
  });

  it('moves from its first seconds and estimates the time left from the speed measured', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    // About 43,000 characters read by the standard espeak-ng voice, in WAV (MP3's encoder
    // would double the test's time): fifteen parts, the first four smaller.
    const text = Array.from({ length: 24 }, (_, i) => sentences(`paragraph ${i + 1}`, 40)).join(
      '\n\n',
    );
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: {
        title: 'Timed',
        text,
        output_format: 'wav',
        sample_rate: 16000,
        engine: 'standard',
        language_code: 'en-US',
      },
    });
    expect(created.statusCode).toBe(202);
    const { id } = created.json() as { id: string };
    const begun = Date.now();
    const seen: { at: number; done: number; fraction: number; left: number | null }[] = [];
    for (let state = await job(app, authorization, id); state.status !== 'done'; ) {
      if (state.status === 'failed') throw new Error(`job failed: ${state.error}`);
      seen.push({
        at: Date.now(),
        done: state.progress.characters_done,
        fraction: state.progress.fraction,
        left: state.progress.seconds_left,
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = await job(app, authorization, id);
    }
    const ended = Date.now();
    // The first progress comes from first parts far smaller than a whole one (3,582 here:
    // two paragraphs), even when a few are done between two looks.
    const firstMove = seen.find((s) => s.done > 0);
    expect(firstMove?.done).toBeLessThan(2000);
    expect(((firstMove?.at ?? ended) - begun) / (ended - begun)).toBeLessThan(0.25);
    // Once a fifth is done there is an estimate of the time left, and it shrinks as the job
    // goes on. How close it comes is measured by the benchmark (bench/jobs.ts), not asserted
    // here: a timing on a shared machine is no test; job-view.test.ts checks the computation.
    const estimates = seen.filter((s) => s.fraction >= 0.2 && s.left !== null);
    expect(estimates.length).toBeGreaterThan(1);
    expect(estimates[0]?.left).toBeGreaterThan(0);
    expect(estimates.at(-1)?.left ?? 0).toBeLessThan(estimates[0]?.left ?? 0);
    // An hour of audio: not kept.
    await app.inject({ method: 'DELETE', url: `/api/jobs/${id}`, headers: { authorization } });
  });

  it('previews an EPUB, then renders the chapters chosen, renamed, in WAV', async () => {
    const { authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const epub = await makeEpub();
    const upload = multipart({}, { name: 'tales.epub', bytes: epub });
    const preview = await app.inject({
      method: 'POST',
      url: '/api/jobs/preview',
      headers: { authorization, ...upload.headers },
      payload: upload.payload,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      title: 'Tales of the Sea',
      source: 'epub',
      chapters: EPUB_CHAPTERS.map(([title, text], index) => ({
        index,
        title,
        characters: text.length,
      })),
    });
    const body = multipart(
      {
        output_format: 'wav',
        sample_rate: '16000',
        chapters: JSON.stringify([{ index: 2, title: 'Home Again' }, { index: 0 }]),
      },
      { name: 'tales.epub', bytes: epub },
    );
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...body.headers },
      payload: body.payload,
    });
    expect(created.statusCode).toBe(202);
    const { id } = created.json() as { id: string };
    const done = await until(app, authorization, id, (j) => j.status === 'done');
    expect(done.source).toBe('epub');
    expect(done.title).toBe('Tales of the Sea');
    expect(done.chapters.map((c) => c.title)).toEqual(['Home Again', 'The Harbour']);
    const audio = await app.inject({
      method: 'GET',
      url: done.path ?? '',
      headers: { authorization },
    });
    const { format } = await parseBuffer(audio.rawPayload, { mimeType: 'audio/wav' });
    expect(format.sampleRate).toBe(16000);
    expect(format.duration).toBeCloseTo(done.duration ?? 0, 1);
  });

  it('asks a visitor to sign in, lists no jobs to a FREE user and lets them start none', async () => {
    // A visitor: a sign-in is needed (not "your session has expired": there was none).
    const upload = multipart({}, { name: 'a.txt', bytes: new TextEncoder().encode('Hi.') });
    for (const request of [
      { url: '/api/jobs', payload: { text: 'Hello.' } },
      { url: '/api/jobs', headers: upload.headers, payload: upload.payload },
      { url: '/api/jobs/preview', headers: upload.headers, payload: upload.payload },
    ]) {
      const response = await app.inject({ method: 'POST', ...request });
      expect(response.statusCode, request.url).toBe(401);
      expect(response.json()).toEqual({ message: JOB_SIGN_IN_MESSAGE });
    }
    // Credentials that do not verify are still told so.
    const expired = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization: 'Bearer not.a.token' },
      payload: { text: 'Hello.' },
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).not.toBe(JOB_SIGN_IN_MESSAGE);

    // A FREE user's File History lists no jobs (200); starting one stays paid.
    const free = await signedInUser(app, { plan: 'FREE' });
    const list = await app.inject({
      method: 'GET',
      url: '/api/jobs',
      headers: { authorization: free.authorization },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    const refusedFree = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization: free.authorization },
      payload: { text: 'Hello.' },
    });
    expect(refusedFree.statusCode).toBe(403);
    expect(refusedFree.json()).toEqual({ message: JOB_MESSAGES.paidPlanNeeded });
    expect((await app.inject({ method: 'GET', url: '/api/jobs' })).statusCode).toBe(401);
  });

  it('names every download after a title in any script: UTF-8 filename* with an ASCII fallback', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const titles: [string, string][] = [
      ['Война и мир', 'audiobook'],
      ['Ἰλιάς', 'audiobook'],
      ['紅樓夢', 'audiobook'],
      ['ألف ليلة وليلة', 'audiobook'],
      ['Café de Flore', 'Cafe de Flore'],
    ];
    for (const [title, ascii] of titles) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/jobs',
        headers: { authorization },
        payload: { title, text: 'Hello there.', output_format: 'mp3' },
      });
      expect(created.statusCode).toBe(202);
      const done = await until(app, authorization, created.json().id, (j) => j.status === 'done');
      const downloads: [string | null, string][] = [
        [done.path, 'mp3'],
        [done.text_path, 'txt'],
        [done.chapters_path, 'zip'],
        [done.subtitles_path, 'vtt'],
      ];
      for (const [url, extension] of downloads) {
        const response = await app.inject({
          method: 'GET',
          url: url ?? '',
          headers: { authorization },
        });
        expect(response.statusCode, `${title} ${extension}`).toBe(200);
        const header = String(response.headers['content-disposition']);
        expect(header).toMatch(/^(attachment|inline); filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
        // Subtitles are named "subtitles" when nothing of the title is ASCII.
        const fallback = ascii === 'audiobook' && extension === 'vtt' ? 'subtitles' : ascii;
        expect(header).toContain(`filename="${fallback}.${extension}"`);
        const encoded = /filename\*=UTF-8''(.+)$/.exec(header)?.[1] ?? '';
        expect(decodeURIComponent(encoded)).toBe(`${title}.${extension}`);
      }
    }
  });

  it('refuses what it cannot do with a 4xx naming the problem, and makes no job', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const post = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/jobs',
        headers: { authorization },
        payload: payload as object,
      });
    const cases: [unknown, number, string | RegExp][] = [
      [{}, 400, 'Give either text or chapters (or send a document as multipart field "document").'],
      [{ text: 'Hi.', output_format: 'flac' }, 400, 'output_format must be one of mp3, ogg, wav.'],
      [
        { text: 'Hi.', voice_id: 'standard:xx-nowhere' },
        400,
        /^voice_id: no standard voice "standard:xx-nowhere"/,
      ],
      [{ text: 'Hi.', master_speed: 500 }, 400, 'master_speed must be at most 100.'],
      [{ text: 'Hi.', chapter_pause: 9 }, 400, 'chapter_pause must be at most 5 seconds.'],
      [
        { text: 'Hi.', speak_chapter_titles: 'maybe' },
        400,
        'speak_chapter_titles must be true or false.',
      ],
      [
        { text: 'Hi.', language_code: 'xx-YY' },
        400,
        /^No neural voice speaks xx-YY; choose another engine or language/,
      ],
      [
        { text: 'Hi.', chapters: [{ title: 'A', text: 'B' }] },
        400,
        /^Give either text or chapters/,
      ],
      [{ text: 'x'.repeat(100_001) }, 413, /the BASIC plan allows 100,000 per job/],
    ];
    for (const [payload, code, message] of cases) {
      const response = await post(payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(code);
      expect((response.json() as { message: string }).message).toMatch(message);
    }
    const fake = multipart(
      {},
      { name: 'report.pdf', bytes: new TextEncoder().encode('not a pdf') },
    );
    const notPdf = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...fake.headers },
      payload: fake.payload,
    });
    expect(notPdf.statusCode).toBe(422);
    expect(notPdf.json()).toEqual({
      message: 'report.pdf is not a PDF document: it is a text file.',
    });
    const badChoice = multipart(
      { chapters: '[{"index": 7}]' },
      { name: 'tales.epub', bytes: await makeEpub() },
    );
    const refusedChoice = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...badChoice.headers },
      payload: badChoice.payload,
    });
    expect(refusedChoice.statusCode).toBe(400);
    expect(refusedChoice.json()).toEqual({ message: JOB_MESSAGES.badChapters(3) });
    const unknownField = multipart(
      { voice: 'x' },
      { name: 'a.txt', bytes: new TextEncoder().encode('Hi.') },
    );
    const refusedField = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...unknownField.headers },
      payload: unknownField.payload,
    });
    expect(refusedField.statusCode).toBe(400);
    expect(refusedField.json()).toEqual({ message: 'Unknown field: voice.' });
    const nulTitle = multipart(
      { title: 'A\u0000B' },
      { name: 'a.txt', bytes: new TextEncoder().encode('Hi.') },
    );
    const refusedTitle = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization, ...nulTitle.headers },
      payload: nulTitle.payload,
    });
    expect(refusedTitle.statusCode).toBe(400);
    expect(refusedTitle.json()).toEqual({
      message: 'title must not contain a NUL character (\\u0000).',
    });
    const list = await app.inject({ method: 'GET', url: '/api/jobs', headers: { authorization } });
    expect(list.json()).toEqual([]);
    const other = await app.inject({
      method: 'GET',
      url: '/api/jobs/not-mine',
      headers: { authorization },
    });
    expect(other.statusCode).toBe(404);
  });

  it('cancels a job: what was rendered stays charged, nothing more is', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const before = await remaining(app, authorization);
    const text = ['one', 'two', 'three', 'four', 'five', 'six']
      .map((l) => sentences(l, 60))
      .join('\n\n');
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { text },
    });
    const { id } = created.json() as { id: string };
    const cancelled = await app.inject({
      method: 'DELETE',
      url: `/api/jobs/${id}`,
      headers: { authorization },
    });
    expect(cancelled.statusCode).toBe(200);
    expect((cancelled.json() as Job).status).toBe('cancelled');
    // Parts in hand finish; none starts after. Then the charge is what they cost.
    for (let waited = 0; ; waited += 100) {
      const inHand = await app.db
        .selectFrom('job_parts')
        .select('part')
        .where('job_id', '=', id)
        .where('status', '=', 'charged')
        .execute();
      if (inHand.length === 0 && waited >= 1000) break;
      if (waited > 60_000) throw new Error('parts still in hand a minute after the cancel');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const after = await job(app, authorization, id);
    expect(after.status).toBe('cancelled');
    expect(after.path).toBeNull();
    expect(after.progress.characters_done).toBeLessThan(text.length);
    expect(before - (await remaining(app, authorization))).toBe(after.progress.characters_done);
    // Deleting the ended job removes it; the charge stays what it was.
    const deleted = await app.inject({
      method: 'DELETE',
      url: `/api/jobs/${id}`,
      headers: { authorization },
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: JOB_MESSAGES.deleted });
    expect(await remaining(app, authorization)).toBe(before - after.progress.characters_done);
  });

  it('resumes on another server after the first stops midway: complete audio, charged once', async () => {
    const first = await createTestApp({ config, jobRunner: { ...runner, concurrency: 1 } });
    await first.ready();
    const { authorization } = await signedInUser(first, { plan: 'BUSINESS' });
    const before = await remaining(first, authorization);
    const text = ['alpha', 'beta', 'gamma'].map((l) => sentences(l, 60)).join('\n\n');
    const created = await first.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { title: 'Resumed', text, output_format: 'mp3' },
    });
    const { id } = created.json() as { id: string };
    await until(first, authorization, id, (j) => j.progress.characters_done > 0);
    await first.close();
    const stopped = await job(app, authorization, id);
    expect(stopped.status).toBe('running');
    expect(stopped.progress.fraction).toBeLessThan(1);
    // The test's own app (the second server) takes it over once the first one's lease ends.
    const done = await until(app, authorization, id, (j) => j.status === 'done');
    // Every character of the text but the blank lines between its parts.
    expect(done.characters).toBeGreaterThan(text.length - 10);
    expect(done.characters).toBeLessThanOrEqual(text.length);
    expect(before - (await remaining(app, authorization))).toBe(done.characters);
    const audio = await app.inject({
      method: 'GET',
      url: done.path ?? '',
      headers: { authorization },
    });
    const { format } = await parseBuffer(
      audio.rawPayload,
      { mimeType: 'audio/mpeg' },
      { duration: true },
    );
    // About 180 sentences: minutes of speech, every part there.
    expect(format.duration).toBeGreaterThan((done.duration ?? 0) - 1);
    expect(done.duration).toBeGreaterThan(150);
  });

  it('purges a job and its files 30 days after it ended', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BASIC' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/jobs',
      headers: { authorization },
      payload: { text: 'Kept for thirty days.' },
    });
    const { id } = created.json() as { id: string };
    await until(app, authorization, id, (j) => j.status === 'done');
    const files = () => storedFiles(id);
    expect((await files()).length).toBeGreaterThan(0);
    // A server starting 29 days later keeps it; one starting 31 days later purges it first.
    const day = 86_400_000;
    const soon = await createTestApp({ config, now: () => new Date(Date.now() + 29 * day) });
    await soon.ready();
    expect((await job(app, authorization, id)).status).toBe('done');
    await soon.close();
    const later = await createTestApp({ config, now: () => new Date(Date.now() + 31 * day) });
    await later.ready();
    const gone = await app.inject({
      method: 'GET',
      url: `/api/jobs/${id}`,
      headers: { authorization },
    });
    expect(gone.statusCode).toBe(404);
    expect(await files()).toEqual([]);
    await later.close();
  });

  // Last: it closes the test's app, so that only the real server processes render.
  it('survives its server being killed midway: another takes it over, audio whole, charged once', async () => {
    const { authorization } = await signedInUser(app, { plan: 'BUSINESS' });
    const before = await remaining(app, authorization);
    await app.close();
    const databaseUrl = inject('databaseUrl');
    const env = {
      DATA_DIR: config.dataDir,
      JOB_RUNNER: 'on',
      JOB_CONCURRENCY: '1',
      JOB_LEASE_SECONDS: '2',
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    };
    const call = async (base: string, path: string, init: RequestInit = {}) => {
      const response = await fetch(`${base}${path}`, {
        ...init,
        headers: { authorization, 'content-type': 'application/json', ...init.headers },
      });
      return { status: response.status, body: (await response.json()) as Job & { id: string } };
    };
    const first = startServer(env);
    servers.push(first);
    const firstUrl = await listeningUrl(first);
    const text = ['north', 'south', 'east', 'west'].map((l) => sentences(l, 60)).join('\n\n');
    const created = await call(firstUrl, '/api/jobs', {
      method: 'POST',
      body: JSON.stringify({ title: 'Killed', text, output_format: 'mp3' }),
    });
    expect(created.status).toBe(202);
    const { id } = created.body;
    for (
      let state = created.body;
      state.progress?.characters_done === undefined || state.progress.characters_done === 0;
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await call(firstUrl, `/api/jobs/${id}`)).body;
    }
    first.child.kill('SIGKILL');
    await first.exited;

    const second = startServer(env);
    servers.push(second);
    const secondUrl = await listeningUrl(second);
    let done = (await call(secondUrl, `/api/jobs/${id}`)).body;
    expect(done.status).toBe('running');
    expect(done.progress.fraction).toBeLessThan(1);
    for (const end = Date.now() + 120_000; done.status !== 'done'; ) {
      if (Date.now() > end || (done.status !== 'running' && done.status !== 'queued')) {
        throw new Error(`job ${done.status} after the kill: ${done.error}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      done = (await call(secondUrl, `/api/jobs/${id}`)).body;
    }
    const profile = await fetch(`${secondUrl}/api/account/profile`, { headers: { authorization } });
    const left = ((await profile.json()) as { plan: { count_characters: number } }).plan
      .count_characters;
    expect(before - left).toBe(done.characters);
    const audio = await fetch(`${secondUrl}${done.path}`, { headers: { authorization } });
    const bytes = Buffer.from(await audio.arrayBuffer());
    const { format } = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { duration: true });
    // Every part is there: the file lasts what its parts last (four parts of minutes each).
    expect(format.duration).toBeGreaterThan((done.duration ?? 0) - 1);
    expect(format.duration).toBeLessThan((done.duration ?? 0) + 1);
    expect(done.duration).toBeGreaterThan(200);
  });
});
