import multipart from '@fastify/multipart';
import {
  AudioBodySchema,
  DocumentPreviewSchema,
  ErrorResponseSchema,
  JOB_ACTIVE_LIMITS,
  JobCreatedSchema,
  JobDeletedSchema,
  JobIdParamsSchema,
  JobListSchema,
  JobSchema,
  type PlanType,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import type { JobsTable } from '../../db/schema.js';
import { timingRoutes } from '../../http/timing-routes.js';
import type { Scheduler } from '../../lib/schedule.js';
import type { SpeechService } from '../../lib/speech.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { createUsageLog } from '../../services/admin/usage-log.js';
import type { LexiconRepository } from '../../services/lexicons/lexicon-repository.js';
import { type PlanStore, termsOfUser } from '../../services/plans/plan-store.js';
import {
  type DoneJob,
  isDone,
  type JobFile,
  jobFiles,
  sendChapters,
  sendJobFile,
} from './downloads.js';
import { draftFromJson, draftFromUpload, newJob } from './job-input.js';
import { describeJobs } from './job-view.js';
import { JOB_MESSAGES, type Refusal, refuse } from './messages.js';
import { createReaderPool, type ReaderLimits } from './reader-pool.js';
import { createJobRepository } from './repository.js';
import { createJobRunner, JOB_CONCURRENCY, type JobRunnerOptions } from './runner.js';
import { MULTIPART_LIMITS, previewOf, readChapters, readUpload } from './upload.js';

// What these routes answer, word for word, for whoever checks their answers (their tests).
export { JOB_MESSAGES } from './messages.js';

/** Days a job and its audio are kept once it has ended. */
const JOB_RETENTION_DAYS = 30;

export interface JobRoutesOptions {
  db: Db;
  speech: SpeechService;
  lexicons: LexiconRepository;
  storage: ObjectStorage;
  scheduler: Scheduler;
  /** The plans' terms: a job uses only the engines of the user's plan. */
  plans: PlanStore;
  now?: () => Date;
  runner?: Omit<JobRunnerOptions, 'jobs' | 'speech' | 'storage' | 'log' | 'lexicons'>;
  /** How documents are read on this server (default READER_LIMITS). */
  readers?: ReaderLimits;
}

/** Documents (previews and jobs) a user may send a minute, counted on every server. */
export const DOCUMENTS_PER_MINUTE = 20;

const bearer: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKey: [] }];

/**
 * Jobs (issue 19): a document or a long text rendered into an audiobook by the runner, in the
 * background, on whichever server holds its lease.
 */
export const jobRoutes: FastifyPluginAsyncZod<JobRoutesOptions> = async (app, options) => {
  const { speech, storage, lexicons } = options;
  const jobs = createJobRepository(options.db, storage);
  const runner = createJobRunner({
    jobs,
    speech,
    storage,
    lexicons,
    usage: createUsageLog(options.db),
    log: app.log,
    ...options.runner,
  });
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());

  // A job and its files are kept 30 days after it ended, as saved files are (SPEC §9).
  const now = options.now ?? (() => new Date());
  options.scheduler.every('job-purge', 60 * 60 * 1000, async () => {
    const before = new Date(now().getTime() - JOB_RETENTION_DAYS * 86_400_000);
    const count = await jobs.purgeEnded(before);
    if (count > 0) app.log.info({ count }, 'ended jobs purged');
  });

  await app.register(multipart, { limits: MULTIPART_LIMITS });

  // Documents are read in child processes, a few at a time (docs/decisions/036).
  const readers = createReaderPool(options.readers);
  app.addHook('onClose', async () => readers.close());
  /** The users whose document this server is reading: one at a time each. */
  const readingFor = new Set<string>();
  const documentRateLimit = { rateLimit: { max: DOCUMENTS_PER_MINUTE, timeWindow: 60_000 } };

  /**
   * Reads the request's document for a user, one at a time per user; a server whose readers
   * are all busy answers 503 with Retry-After.
   */
  async function withDocument<T extends { ok: boolean }>(
    request: FastifyRequest,
    reply: FastifyReply,
    read: () => Promise<T | Refusal>,
  ): Promise<T | Refusal> {
    const user = request.user.id;
    if (readingFor.has(user)) return refuse(429, JOB_MESSAGES.readingOne);
    readingFor.add(user);
    try {
      const result = await read();
      if (!result.ok && (result as Refusal).status === 503) reply.header('retry-after', '5');
      return result;
    } finally {
      readingFor.delete(user);
    }
  }

  async function requirePaidPlan(request: FastifyRequest, reply: FastifyReply) {
    // A visitor is told to sign in (credentials that do not verify were refused before).
    if (!(await app.resolveUser(request))) {
      return reply.code(401).send({ message: JOB_MESSAGES.signInNeeded });
    }
    await app.requireUser(request, reply);
    if (reply.sent) return;
    if (request.user.role === 'USER' && request.user.plan_type === 'FREE') {
      return reply.code(403).send({ message: JOB_MESSAGES.paidPlanNeeded });
    }
  }

  const describe = (rows: JobsTable[]) =>
    describeJobs(rows, jobs, speech, options.runner?.concurrency ?? JOB_CONCURRENCY);

  /** The signed-in user's job named by the path. */
  function findOwn(request: FastifyRequest) {
    const { id } = request.params as { id: string };
    return jobs.findOwn(id, request.user.id);
  }

  /** The signed-in user's job named by the path, once its audio is ready. */
  async function findDone(request: FastifyRequest): Promise<{ ok: true; job: DoneJob } | Refusal> {
    const job = await findOwn(request);
    if (!job) return refuse(404, JOB_MESSAGES.notFound);
    if (!isDone(job)) return refuse(409, JOB_MESSAGES.notDone);
    return { ok: true, job };
  }

  app.post(
    '/preview',
    {
      config: documentRateLimit,
      preHandler: requirePaidPlan,
      schema: {
        tags: ['jobs'],
        summary:
          'What a document holds (chapters, characters) before a job is made of it; multipart field "document"',
        consumes: ['multipart/form-data'],
        security: bearer,
        response: { 200: DocumentPreviewSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await withDocument(request, reply, async () => {
        const read = await readUpload(request);
        return read.ok ? readChapters(readers, read.upload.document) : read;
      });
      if (!result.ok) return reply.code(result.status).send({ message: result.message });
      return previewOf(result.parsed);
    },
  );

  app.post(
    '/',
    {
      config: documentRateLimit,
      preHandler: requirePaidPlan,
      schema: {
        tags: ['jobs'],
        summary:
          'Start a job: a document (multipart field "document", with the voice settings and an optional "chapters" choice as fields) or JSON {text | chapters, voice settings}',
        consumes: ['application/json', 'multipart/form-data'],
        security: bearer,
        response: { 202: JobCreatedSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const plan = request.user.plan_type as PlanType;
      const cap =
        request.user.role === 'ADMIN' ? Number.POSITIVE_INFINITY : JOB_ACTIVE_LIMITS[plan];
      const tooMany = () =>
        reply.code(429).send({ message: JOB_MESSAGES.tooManyActive(cap, plan) });
      // Refused before its document is read; counted again as it is stored (a burst).
      if ((await jobs.activeCount(request.user.id)) >= cap) return tooMany();
      const drafted = request.isMultipart()
        ? await withDocument(request, reply, () => draftFromUpload(request, readers))
        : draftFromJson(request.body);
      if (!drafted.ok) return reply.code(drafted.status).send({ message: drafted.message });
      // The lexicons it names must be the user's (they are read again for each part).
      const names = drafted.draft.input.lexicon_names;
      const known = names && (await lexicons.resolve(request.user.id, names, ''));
      if (known && !known.ok) return reply.code(400).send({ message: known.message });
      const { engines } = termsOfUser(request.user, await options.plans.catalogue());
      const made = await newJob(speech, request.user, drafted.draft, engines);
      if (!made.ok) return reply.code(made.status).send({ message: made.message });
      if (!(await jobs.create(made.job, made.parts, cap))) return tooMany();
      runner.wake();
      return reply.code(202).send({ id: made.job.id, status: 'queued' as const });
    },
  );

  app.get(
    '/',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['jobs'],
        summary: "The user's jobs, newest first (FREE: none, jobs are paid)",
        security: bearer,
        response: { 200: JobListSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request) => describe(await jobs.listOwn(request.user.id)),
  );

  app.get(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['jobs'],
        summary: 'A job: status, progress, chapters, and its audio once done',
        params: JobIdParamsSchema,
        security: bearer,
        response: { 200: JobSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const job = await findOwn(request);
      if (!job) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
      const [described] = await describe([job]);
      return described;
    },
  );

  app.delete(
    '/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['jobs'],
        summary:
          'Cancel a queued or running job (what was rendered stays charged, nothing more is), or delete an ended one with its audio',
        params: JobIdParamsSchema,
        security: bearer,
        response: {
          200: JobDeletedSchema,
          '4xx': ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const job = await findOwn(request);
      if (!job) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
      if (await jobs.cancel(job.id)) {
        const [described] = await describe([(await findOwn(request)) ?? job]);
        return described;
      }
      await jobs.remove(job.id);
      return { message: JOB_MESSAGES.deleted };
    },
  );

  /** A file of a finished job, sent as a download named after the job. */
  function download(
    path: string,
    summary: string,
    produces: string[],
    file: (job: DoneJob) => JobFile,
  ) {
    app.get(
      path,
      {
        preHandler: app.requireUser,
        schema: {
          tags: ['jobs'],
          summary,
          params: JobIdParamsSchema,
          security: bearer,
          produces,
          response: { 200: AudioBodySchema, 206: AudioBodySchema, '4xx': ErrorResponseSchema },
        },
      },
      async (request, reply) => {
        const found = await findDone(request);
        if (!found.ok) return reply.code(found.status).send({ message: found.message });
        return sendJobFile(request, reply, storage, found.job, file(found.job));
      },
    );
  }
  download(
    '/:id/audio',
    "The job's audio, one file with its chapters marked (ID3 CHAP in mp3, chapter comments in ogg)",
    ['audio/mpeg', 'audio/ogg', 'audio/wav'],
    jobFiles.audio,
  );
  app.get(
    '/:id/chapters',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['jobs'],
        summary: "The job's chapters, one audio file each, in a zip (made as it is sent)",
        params: JobIdParamsSchema,
        security: bearer,
        produces: ['application/zip'],
        response: { 200: AudioBodySchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const found = await findDone(request);
      if (!found.ok) return reply.code(found.status).send({ message: found.message });
      // A stream, not the JSON of the response schema (as sendStoredObject sends audio).
      return sendChapters(reply, storage, found.job);
    },
  );
  download(
    '/:id/text',
    'The text the job read, chapter after chapter',
    ['text/plain'],
    jobFiles.text,
  );

  await app.register(
    timingRoutes({
      storage,
      params: JobIdParamsSchema,
      notFound: JOB_MESSAGES.notFound,
      tag: 'jobs',
      security: bearer,
      preHandler: app.requireUser,
      userOf: (request) => request.user?.id,
      find: async (id, userId) => {
        const job = await jobs.findOwn(id, userId ?? '');
        return job && isDone(job)
          ? { audioKey: job.audio_key, duration: job.duration ?? 0, name: job.title }
          : undefined;
      },
    }),
  );
};
