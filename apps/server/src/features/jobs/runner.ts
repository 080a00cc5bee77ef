import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { SpeechMark, VoiceSettings } from '@parla/contract';
import {
  chapterComments,
  createStreamEncoder,
  isClientError,
  pcm16ToSamples,
  SpeechError,
  type StreamEncoder,
  wavHeader,
  withVorbisComments,
} from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import NodeID3 from 'node-id3';
import PQueue from 'p-queue';
import type { Db } from '../../db/database.js';
import type { JobPartsTable, JobsTable } from '../../db/schema.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import { marksKey, readMarks } from '../../lib/marks.js';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { createUsageRepository } from '../../services/conversion/usage-repository.js';

/**
 * Renders jobs (issue 19, docs/decisions/023-jobs.md). Every server runs one runner; a job is
 * held by one runner at a time through a lease in its row, renewed while it runs: a server
 * that stops (or is killed) lets its lease run out and another takes the job over, skipping
 * the parts already done. A part is charged when it is taken (in one transaction with its
 * state), so a part rendered twice after a crash is charged once; a part that fails is given
 * back. The parts go to the speech service, hence to the queue's workers when there is one,
 * several at a time.
 */

export interface JobChapterRecord {
  title: string;
  characters: number;
  /** Once assembled: where the chapter's audio lies in the whole file (start, end exclusive). */
  bytes?: [number, number];
  /** Once assembled, in Ogg (whose pages cannot be cut out of the whole): its own file. */
  key?: string;
}

export interface JobRunnerOptions {
  db: Db;
  speech: SpeechService;
  storage: ObjectStorage;
  log: FastifyBaseLogger;
  /** Tells the user by mail when a long job has ended, with a link to `publicUrl`/documents. */
  mailer?: Mailer;
  publicUrl?: string;
  /** A job that ran at least this long is worth a mail (default 60 s: shorter, they watched). */
  mailAfterMs?: number;
  /** Parts rendered at once by this server (default 2). */
  concurrency?: number;
  /** How long a lease holds without renewal (default 30 s). */
  leaseMs?: number;
  /** How often the runner looks for work when idle (default 1 s). */
  pollMs?: number;
  /** False: this server renders no jobs (JOB_RUNNER=off), others do. */
  enabled?: boolean;
}

export interface JobRunner {
  start(): void;
  /** Looks for work now (a job was just submitted). */
  wake(): void;
  /** Stops taking parts; the job in hand is left for another runner (or this one, restarted). */
  stop(): Promise<void>;
}

/** Why a job stopped, as its status and the mail to its owner say. */
export const JOB_FAILURE_MESSAGES = {
  noCharacters: (needed: number, left: number) =>
    `Not enough characters left to go on: the next part needs ${needed}, ${left} remain. Buy more and start the job again.`,
  failed: 'The job could not be rendered. Nothing more was charged; please try again later.',
};

/** Where a job's files are. */
export const jobKeys = {
  part: (jobId: string, chapter: number, part: number, format: string) =>
    `jobs/${jobId}/parts/${chapter}-${part}.${format}`,
  audio: (jobId: string, format: string) => `jobs/${jobId}/audiobook.${format}`,
  chapter: (jobId: string, chapter: number, format: string) =>
    `jobs/${jobId}/chapters/${chapter}.${format}`,
  text: (jobId: string) => `jobs/${jobId}/text.txt`,
};

/**
 * The format a job's parts are rendered in: its own, but PCM (wav) for Ogg, which is encoded
 * once over the whole book (Ogg streams put end to end are a chained file most players stop
 * at the first link of).
 */
const partFormat = (format: string) => (format === 'ogg' ? 'wav' : format);

/** How many times a part is tried when the speech service fails for its own reasons. */
const ATTEMPTS = 3;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, speech, storage, log } = options;
  const owner = randomUUID();
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  const leaseUntil = () => new Date(Date.now() + leaseMs).toISOString();

  /** Takes a job whose lease is free (queued, or running on a server that went away). */
  async function claim(): Promise<JobsTable | undefined> {
    const now = new Date().toISOString();
    const candidates = await db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['queued', 'running'])
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('created_at')
      .limit(5)
      .execute();
    for (const { id } of candidates) {
      const taken = await db
        .updateTable('jobs')
        .set({
          lease_owner: owner,
          lease_until: leaseUntil(),
          status: 'running',
          started_at: (eb) => eb.fn.coalesce('started_at', eb.val(now)),
          updated_at: now,
        })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 1) {
        return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
      }
    }
    return undefined;
  }

  /** Renews the lease; false when the job is no longer this runner's to render. */
  async function renew(jobId: string): Promise<boolean> {
    const renewed = await db
      .updateTable('jobs')
      .set({ lease_until: leaseUntil() })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(renewed.numUpdatedRows) === 1;
  }

  async function finish(job: JobsTable, values: Partial<JobsTable>): Promise<void> {
    const now = new Date().toISOString();
    const ended = await db
      .updateTable('jobs')
      .set({ ...values, lease_owner: null, lease_until: null, finished_at: now, updated_at: now })
      .where('id', '=', job.id)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    const took = Date.now() - Date.parse(job.started_at ?? job.created_at);
    if (Number(ended.numUpdatedRows) === 1 && took >= (options.mailAfterMs ?? 60_000)) {
      await tell(
        job,
        values.status === 'done' ? undefined : (values.error ?? JOB_FAILURE_MESSAGES.failed),
      ).catch((error: unknown) => log.warn({ err: error, job: job.id }, 'job mail not sent'));
    }
  }

  /** The mail that says a job has ended: ready, or why it failed. */
  async function tell(job: JobsTable, failure: string | undefined): Promise<void> {
    const { mailer, publicUrl } = options;
    if (!mailer || !publicUrl) return;
    const user = await db
      .selectFrom('users')
      .select('email')
      .where('id', '=', job.user_id)
      .executeTakeFirst();
    if (!user) return;
    const action = { label: 'Open your documents', url: `${publicUrl}/documents` };
    await mailer.send({
      to: user.email,
      ...(failure === undefined
        ? {
            subject: `Your audiobook "${job.title}" is ready`,
            ...renderMail({
              title: 'Your audiobook is ready',
              intro: [
                `"${job.title}" has been converted to speech. Play it or download it from your documents.`,
              ],
              action,
              outro: ['Parla keeps it for 30 days.'],
            }),
          }
        : {
            subject: `Your audiobook "${job.title}" could not be finished`,
            ...renderMail({
              title: 'Your audiobook could not be finished',
              intro: [
                `"${job.title}" stopped: ${failure}`,
                'Characters were charged only for the parts rendered.',
              ],
              action,
            }),
          }),
    });
  }

  /** Charges a pending part and marks it taken, together; the charge fails when too few are left. */
  async function charge(
    job: JobsTable,
    part: JobPartsTable,
  ): Promise<{ ok: true } | { ok: false; left: number }> {
    return db.transaction().execute(async (trx) => {
      const spent = await createUsageRepository(trx).spendUser(job.user_id, part.characters);
      if (!spent.ok) return { ok: false as const, left: spent.remaining };
      await movePart(trx, part, 'pending', { status: 'charged' });
      return { ok: true as const };
    });
  }

  /** A taken part given back: its characters returned, pending again. */
  async function giveBack(job: JobsTable, part: JobPartsTable): Promise<void> {
    await db.transaction().execute(async (trx) => {
      if (await movePart(trx, part, 'charged', { status: 'pending' })) {
        await createUsageRepository(trx).refundUser(job.user_id, part.characters);
      }
    });
  }

  async function status(jobId: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('jobs')
      .select('status')
      .where('id', '=', jobId)
      .executeTakeFirst();
    return row?.status;
  }

  async function run(job: JobsTable): Promise<void> {
    const settings = JSON.parse(job.settings) as Omit<VoiceSettings, 'text'>;
    const format = partFormat(job.output_format);
    let lost = false;
    const heartbeat = setInterval(() => {
      renew(job.id).then(
        (held) => {
          if (!held) lost = true;
        },
        (error: unknown) => log.warn({ err: error, job: job.id }, 'job lease not renewed'),
      );
    }, leaseMs / 3);
    heartbeat.unref();
    try {
      const parts = await db
        .selectFrom('job_parts')
        .selectAll()
        .where('job_id', '=', job.id)
        .where('status', '!=', 'done')
        .orderBy('chapter')
        .orderBy('part')
        .execute();
      const queue = new PQueue({ concurrency: options.concurrency ?? 2 });
      let failure: string | undefined;
      const halted = async () =>
        stopping || lost || failure !== undefined || (await status(job.id)) !== 'running';
      for (const part of parts) {
        void queue.add(async () => {
          if (await halted()) return;
          if (part.status === 'pending') {
            const charged = await charge(job, part);
            if (!charged.ok) {
              failure = JOB_FAILURE_MESSAGES.noCharacters(part.characters, charged.left);
              return;
            }
          }
          const key = jobKeys.part(job.id, part.chapter, part.part, format);
          for (let attempt = 1; ; attempt++) {
            try {
              const result = await speech.render(
                {
                  ...settings,
                  output_format: format as VoiceSettings['output_format'],
                  text: part.text,
                },
                key,
                // Ogg's parts are PCM at the book's rate (WAV is otherwise 16 kHz only).
                { productRules: format === job.output_format },
              );
              await movePart(db, part, 'charged', { status: 'done', duration: result.duration });
              await db
                .updateTable('jobs')
                .set({ updated_at: new Date().toISOString() })
                .where('id', '=', job.id)
                .execute();
              return;
            } catch (error) {
              const ours = !(error instanceof SpeechError && isClientError(error.code));
              if (ours && attempt < ATTEMPTS && !(await halted())) {
                log.warn({ err: error, job: job.id, attempt }, 'job part failed; trying again');
                continue;
              }
              await giveBack(job, part);
              if (!ours) failure = (error as Error).message;
              else {
                log.error({ err: error, job: job.id }, 'job part failed');
                failure = JOB_FAILURE_MESSAGES.failed;
              }
              return;
            }
          }
        });
      }
      await queue.onIdle();
      if (failure !== undefined) {
        await finish(job, { status: 'failed', error: failure });
        await removeParts(job.id);
        return;
      }
      const now = await status(job.id);
      if (now === 'cancelled') {
        await removeParts(job.id);
        return;
      }
      if (stopping || lost || now !== 'running') return;
      const assembled = await assemble(job);
      await finish(job, {
        status: 'done',
        audio_key: assembled.key,
        audio_size: assembled.size,
        duration: assembled.duration,
        chapters: JSON.stringify(assembled.chapters),
      });
      await removeParts(job.id);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /**
   * The parts' audio as one file with chapter markers, streamed from the parts into storage
   * (an audiobook may last hours: it is never held in memory), its marks and its text beside
   * it. Answers the chapters with where each lies in the file (or, in Ogg, their own files),
   * for the zip of chapters.
   */
  async function assemble(
    job: JobsTable,
  ): Promise<{ key: string; size: number; duration: number; chapters: JobChapterRecord[] }> {
    const format = partFormat(job.output_format);
    const chapters = JSON.parse(job.chapters) as JobChapterRecord[];
    const parts = await db
      .selectFrom('job_parts')
      .selectAll()
      .where('job_id', '=', job.id)
      .orderBy('chapter')
      .orderBy('part')
      .execute();
    const pieces: Piece[] = [];
    const marks: SpeechMark[] = [];
    const starts: number[] = [];
    let seconds = 0;
    let offset = 0;
    let text = '';
    for (const part of parts) {
      if (starts[part.chapter] === undefined) starts[part.chapter] = seconds;
      const key = jobKeys.part(job.id, part.chapter, part.part, format);
      const size = (await storage.stat(key))?.size;
      if (size === undefined) throw new Error(`${key} is missing`);
      // A WAV part's samples follow its header; an mp3 part is frames from its first byte.
      const start = format === 'wav' ? await wavDataOffset(storage, key) : 0;
      pieces.push({ key, start, end: size, chapter: part.chapter });
      if (text) {
        text += '\n\n';
        offset += 2;
      }
      for (const mark of (await readMarks(storage, key)) ?? []) {
        marks.push({
          ...mark,
          time: mark.time + Math.round(seconds * 1000),
          start: mark.start + offset,
          end: mark.end + offset,
        });
      }
      text += part.text;
      offset += part.text.length;
      seconds += part.duration ?? 0;
    }
    const sampleRate = (JSON.parse(job.settings) as VoiceSettings).sample_rate;
    await storage.put(
      marksKey(jobKeys.audio(job.id, job.output_format)),
      new TextEncoder().encode(JSON.stringify(marks)),
      'application/json',
    );
    await storage.put(
      jobKeys.text(job.id),
      new TextEncoder().encode(text),
      'text/plain; charset=utf-8',
    );
    if (job.output_format === 'ogg') {
      const encoded = await encodeOgg(job, pieces, chapters, starts, sampleRate);
      return { ...encoded, duration: seconds };
    }
    const ends = chapters.map((_, index) => starts[index + 1] ?? seconds);
    const body = pieces.reduce((sum, piece) => sum + piece.end - piece.start, 0);
    const head =
      format === 'mp3' ? id3(job.title, chapters, starts, ends) : wavHeader(sampleRate, body);
    // Where each chapter's bytes lie in the whole file.
    let at = head.length;
    const placed = chapters.map((chapter, index) => {
      const from = at;
      for (const piece of pieces) if (piece.chapter === index) at += piece.end - piece.start;
      return { ...chapter, bytes: [from, at] as [number, number] };
    });
    const key = jobKeys.audio(job.id, format);
    async function* whole() {
      yield head;
      for (const piece of pieces) {
        if (piece.end === piece.start) continue;
        const stream = await storage.read(piece.key, { start: piece.start, end: piece.end - 1 });
        if (!stream) throw new Error(`${piece.key} is missing`);
        yield* stream;
      }
    }
    await storage.putStream(
      key,
      Readable.from(whole()),
      head.length + body,
      format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
    );
    return { key, size: head.length + body, duration: seconds, chapters: placed };
  }

  /**
   * An Ogg Vorbis audiobook: the parts' PCM encoded once into one stream whose comment header
   * names the book and its chapters (Xiph's chapter extension), and into one file per chapter,
   * through files on this machine (a stored object is sent with its length).
   */
  async function encodeOgg(
    job: JobsTable,
    pieces: Piece[],
    chapters: JobChapterRecord[],
    starts: number[],
    sampleRate: number,
  ): Promise<{ key: string; size: number; chapters: JobChapterRecord[] }> {
    const folder = await mkdtemp(join(tmpdir(), 'parla-job-'));
    try {
      const book = await oggFile(join(folder, 'book.ogg'), sampleRate, [
        `TITLE=${job.title}`,
        ...chapterComments(
          chapters.map((chapter, index) => ({ title: chapter.title, start: starts[index] ?? 0 })),
        ),
      ]);
      const placed: JobChapterRecord[] = [];
      let current: { index: number; file: OggFile } | undefined;
      const closeChapter = async () => {
        if (!current) return;
        const key = jobKeys.chapter(job.id, current.index, 'ogg');
        const size = await current.file.close();
        await storage.putStream(key, createReadStream(current.file.path), size, 'audio/ogg');
        placed[current.index] = { ...(chapters[current.index] as JobChapterRecord), key };
        current = undefined;
      };
      for (const piece of pieces) {
        if (current?.index !== piece.chapter) {
          await closeChapter();
          const title = chapters[piece.chapter]?.title ?? '';
          current = {
            index: piece.chapter,
            file: await oggFile(join(folder, `${piece.chapter}.ogg`), sampleRate, [
              `TITLE=${title}`,
              `ALBUM=${job.title}`,
              `TRACKNUMBER=${piece.chapter + 1}`,
            ]),
          };
        }
        if (piece.end === piece.start) continue;
        const stream = await storage.read(piece.key, { start: piece.start, end: piece.end - 1 });
        if (!stream) throw new Error(`${piece.key} is missing`);
        let odd: Buffer | undefined;
        for await (const chunk of stream) {
          const bytes: Buffer = odd ? Buffer.concat([odd, chunk as Buffer]) : (chunk as Buffer);
          // A chunk may end half-way through a sample: its last byte waits for the next.
          odd = bytes.length % 2 ? bytes.subarray(bytes.length - 1) : undefined;
          const samples = pcm16ToSamples(bytes);
          await book.write(samples);
          await current.file.write(samples);
        }
      }
      await closeChapter();
      const key = jobKeys.audio(job.id, 'ogg');
      const size = await book.close();
      await storage.putStream(key, createReadStream(book.path), size, 'audio/ogg');
      return { key, size, chapters: chapters.map((chapter, index) => placed[index] ?? chapter) };
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  async function removeParts(jobId: string): Promise<void> {
    for (const { key } of await storage.list(`jobs/${jobId}/parts`)) await storage.remove(key);
  }

  async function tick(): Promise<void> {
    if (running || stopping) return;
    running = (async () => {
      try {
        for (let job = await claim(); job && !stopping; job = await claim()) await run(job);
      } catch (error) {
        log.error({ err: error }, 'job runner');
      } finally {
        running = undefined;
      }
    })();
    await running;
  }

  return {
    start() {
      if (options.enabled === false) return;
      timer ??= setInterval(() => void tick(), pollMs);
      timer.unref();
      void tick();
    },
    wake() {
      if (timer) void tick();
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

/** A part's audio bytes in storage (a WAV part's samples, an mp3 part's frames) and its chapter. */
interface Piece {
  key: string;
  start: number;
  end: number;
  chapter: number;
}

interface OggFile {
  path: string;
  write(samples: Float32Array): Promise<void>;
  /** Ends the stream; answers the file's size. */
  close(): Promise<number>;
}

/** An Ogg Vorbis file being written, with its comments. */
async function oggFile(path: string, sampleRate: number, comments: string[]): Promise<OggFile> {
  const encoder: StreamEncoder = withVorbisComments(
    await createStreamEncoder('ogg', sampleRate),
    comments,
  );
  const handle = await open(path, 'w');
  let size = 0;
  const put = async (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    await handle.write(bytes);
    size += bytes.length;
  };
  return {
    path,
    write: (samples) => put(encoder.encode(samples)),
    async close() {
      try {
        await put(encoder.finish());
      } finally {
        await handle.close();
      }
      return size;
    },
  };
}

/** An ID3v2 tag with the book's title and its chapters (CHAP frames and their table, CTOC). */
function id3(
  title: string,
  chapters: JobChapterRecord[],
  starts: number[],
  ends: number[],
): Buffer {
  return NodeID3.create({
    title,
    chapter: chapters.map((chapter, index) => ({
      elementID: `chp${index}`,
      startTimeMs: Math.round((starts[index] ?? 0) * 1000),
      endTimeMs: Math.round((ends[index] ?? 0) * 1000),
      tags: { title: chapter.title },
    })),
    tableOfContents: [
      {
        elementID: 'toc',
        isOrdered: true,
        elements: chapters.map((_, index) => `chp${index}`),
        tags: { title },
      },
    ],
  });
}

/** A title as a file name: letters, digits and a few signs; nothing a file system refuses. */
export function safeName(title: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || 'chapter'
  );
}

/** Moves a part from the state `from` (answers false when it was not in it). */
async function movePart(
  on: Db,
  part: JobPartsTable,
  from: 'pending' | 'charged',
  to: Pick<JobPartsTable, 'status'> & Partial<Pick<JobPartsTable, 'duration'>>,
): Promise<boolean> {
  const moved = await on
    .updateTable('job_parts')
    .set(to)
    .where('job_id', '=', part.job_id)
    .where('chapter', '=', part.chapter)
    .where('part', '=', part.part)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

/** Where the samples of a stored WAV file start (after its `data` chunk's header). */
async function wavDataOffset(storage: ObjectStorage, key: string): Promise<number> {
  const stream = await storage.read(key, { start: 0, end: 4095 });
  if (!stream) throw new Error(`${key} is missing`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const view = Buffer.concat(chunks);
  for (let at = 12; at + 8 <= view.length; ) {
    if (view.toString('latin1', at, at + 4) === 'data') return at + 8;
    const size = view.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  throw new Error(`${key}: a WAV part has no data`);
}
