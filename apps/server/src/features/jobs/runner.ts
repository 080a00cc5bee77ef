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
import type { JobsTable } from '../../db/schema.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import { marksKey, readMarks } from '../../lib/marks.js';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { type JobChapterRecord, type JobRepository, jobKeys, type Lease } from './repository.js';

/**
 * Renders jobs (issue 19, docs/decisions/023-jobs.md). Every server runs one runner; a job is
 * held by one runner at a time through a lease in its row, renewed while it runs: a server
 * that stops (or is killed) lets its lease run out and another takes the job over, skipping
 * the parts already done. A part is charged when it is taken (in one transaction with its
 * state), so a part rendered twice after a crash is charged once; a part that fails is given
 * back. The parts go to the speech service, hence to the queue's workers when there is one,
 * several at a time.
 */

export interface JobRunnerOptions {
  jobs: JobRepository;
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

/**
 * The format a job's parts are rendered in: its own, but PCM (wav) for Ogg, which is encoded
 * once over the whole book (Ogg streams put end to end are a chained file most players stop
 * at the first link of).
 */
const partFormat = (format: string) => (format === 'ogg' ? 'wav' : format);

/** How many times a part is tried when the speech service fails for its own reasons. */
const ATTEMPTS = 3;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { jobs, speech, storage, log } = options;
  const lease: Lease = { owner: randomUUID(), ms: options.leaseMs ?? 30_000 };
  const pollMs = options.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  async function finish(job: JobsTable, values: Partial<JobsTable>): Promise<void> {
    const ended = await jobs.finish(job.id, lease, values);
    const took = Date.now() - Date.parse(job.started_at ?? job.created_at);
    if (ended && took >= (options.mailAfterMs ?? 60_000)) {
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
    const email = await jobs.ownerEmail(job);
    if (email === undefined) return;
    const action = { label: 'Open your documents', url: `${publicUrl}/documents` };
    await mailer.send({
      to: email,
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

  async function run(job: JobsTable): Promise<void> {
    const settings = JSON.parse(job.settings) as Omit<VoiceSettings, 'text'>;
    const format = partFormat(job.output_format);
    let lost = false;
    const heartbeat = setInterval(() => {
      jobs.renew(job.id, lease).then(
        (held) => {
          if (!held) lost = true;
        },
        (error: unknown) => log.warn({ err: error, job: job.id }, 'job lease not renewed'),
      );
    }, lease.ms / 3);
    heartbeat.unref();
    try {
      const parts = await jobs.parts(job.id, { unfinished: true });
      const queue = new PQueue({ concurrency: options.concurrency ?? 2 });
      let failure: string | undefined;
      const halted = async () =>
        stopping || lost || failure !== undefined || (await jobs.status(job.id)) !== 'running';
      for (const part of parts) {
        void queue.add(async () => {
          if (await halted()) return;
          if (part.status === 'pending') {
            const charged = await jobs.charge(job, part);
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
              await jobs.partDone(part, result.duration);
              return;
            } catch (error) {
              const ours = !(error instanceof SpeechError && isClientError(error.code));
              if (ours && attempt < ATTEMPTS && !(await halted())) {
                log.warn({ err: error, job: job.id, attempt }, 'job part failed; trying again');
                continue;
              }
              await jobs.giveBack(job, part);
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
      const now = await jobs.status(job.id);
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
    const parts = await jobs.parts(job.id);
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
    for (const { key } of await storage.list(jobKeys.parts(jobId))) await storage.remove(key);
  }

  async function tick(): Promise<void> {
    if (running || stopping) return;
    running = (async () => {
      try {
        for (let job = await jobs.claim(lease); job && !stopping; job = await jobs.claim(lease))
          await run(job);
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
