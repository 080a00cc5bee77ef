import { randomUUID } from 'node:crypto';
import type { VoiceSettings } from '@parla/contract';
import { isClientError, SpeechError } from '@parla/speech';
import type { FastifyBaseLogger } from 'fastify';
import PQueue from 'p-queue';
import type { JobPartsTable, JobsTable } from '../../db/schema.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import type { UsageLog } from '../../services/admin/usage-log.js';
import type { LexiconRepository } from '../../services/lexicons/lexicon-repository.js';
import { assemble, partFormat } from './assembly.js';
import { type JobRepository, jobKeys, jobSettings, type Lease } from './repository.js';

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
  /** The job's lexicons (its `lexicon_names`, or the user's defaults), read for each part. */
  lexicons: LexiconRepository;
  storage: ObjectStorage;
  /** Where a job that ended is recorded for the console's overview (decision 053). */
  usage?: UsageLog;
  log: FastifyBaseLogger;
  /** Tells the user by mail when a long job has ended, with a link to `publicUrl`/documents. */
  mailer?: Mailer;
  publicUrl?: string;
  /** A job that ran at least this long is worth a mail (default 60 s: shorter, they watched). */
  mailAfterMs?: number;
  /** Parts rendered at once by this server (default JOB_CONCURRENCY). */
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

/** Parts of a job rendered at once by a server, unless configured (JOB_CONCURRENCY). */
export const JOB_CONCURRENCY = 2;

/** How many times a part is tried when the speech service fails for its own reasons. */
const ATTEMPTS = 3;

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { jobs, speech, storage, log, lexicons } = options;
  const lease: Lease = { owner: randomUUID(), ms: options.leaseMs ?? 30_000 };
  const pollMs = options.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopping = false;

  async function finish(job: JobsTable, values: Partial<JobsTable>): Promise<void> {
    const ended = await jobs.finish(job.id, lease, values);
    // The overview counts a job that was rendered, or that failed for the service's reasons
    // (not one the user's allowance or lexicons stopped, as a refused conversion is not).
    const done = values.status === 'done';
    if (ended && options.usage && (done || values.error === JOB_FAILURE_MESSAGES.failed)) {
      const voice = jobSettings(job).voice;
      await options.usage
        .record({
          source: 'job',
          status: done ? 'succeeded' : 'failed',
          userId: job.user_id,
          engine: voice.engine,
          voice: voice.voice_id,
          language: voice.language_code,
          characters: job.characters,
          duration: done ? (values.duration ?? 0) : 0,
        })
        .catch((error: unknown) => log.warn({ err: error, job: job.id }, 'usage not logged'));
    }
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
      const queue = new PQueue({ concurrency: options.concurrency ?? JOB_CONCURRENCY });
      let failure: string | undefined;
      const halted = async () =>
        stopping || lost || failure !== undefined || (await jobs.status(job.id)) !== 'running';
      for (const part of parts) {
        void queue.add(async () => {
          if (await halted()) return;
          const stop = await renderPart(job, part, halted);
          if (stop !== undefined) failure = stop;
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
      const assembled = await assemble(job, jobs, storage);
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
   * Charges a part unless it was already, and renders it, trying again while the speech service
   * fails for its own reasons; answers why the job must stop, if it must.
   */
  async function renderPart(
    job: JobsTable,
    part: JobPartsTable,
    halted: () => Promise<boolean>,
  ): Promise<string | undefined> {
    if (part.status === 'pending') {
      const charged = await jobs.charge(job, part);
      if (!charged.ok) return JOB_FAILURE_MESSAGES.noCharacters(part.characters, charged.left);
    }
    await jobs.partStarted(part);
    const settings = jobSettings(job).voice;
    const format = partFormat(job.output_format);
    const key = jobKeys.part(job.id, part.chapter, part.part, format);
    // A lexicon deleted since the job began fails it, saying which (nothing more is charged).
    const resolved = await lexicons.resolve(job.user_id, settings.lexicon_names, part.text);
    if (!resolved.ok) {
      await jobs.giveBack(job, part);
      return resolved.message;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await speech.render(
          { ...settings, output_format: format as VoiceSettings['output_format'], text: part.text },
          key,
          // Ogg's parts are PCM at the book's rate (WAV is otherwise 16 kHz only): the settings
          // were checked as the user sent them, for the book.
          { lexicons: resolved.lexicons },
        );
        await jobs.partDone(part, result.duration);
        return undefined;
      } catch (error) {
        const ours = !(error instanceof SpeechError && isClientError(error.code));
        if (ours && attempt < ATTEMPTS && !(await halted())) {
          log.warn({ err: error, job: job.id, attempt }, 'job part failed; trying again');
          continue;
        }
        await jobs.giveBack(job, part);
        if (!ours) return (error as Error).message;
        log.error({ err: error, job: job.id }, 'job part failed');
        return JOB_FAILURE_MESSAGES.failed;
      }
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
