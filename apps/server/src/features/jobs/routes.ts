import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import {
  AudioBodySchema,
  ChapterChoiceSchema,
  countCharacters,
  DocumentPreviewSchema,
  ENGINES,
  type Engine,
  ErrorResponseSchema,
  JOB_CHARACTER_LIMITS,
  type Job,
  JobCreatedSchema,
  JobDeletedSchema,
  JobIdParamsSchema,
  JobListSchema,
  JobSchema,
  type JobSettings,
  JobSettingsSchema,
  JobTextInputSchema,
  type PlanType,
  type VoiceSettings,
  VoiceSettingsSchema,
} from '@parla/contract';
import { MIME_TYPES, wavHeader } from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import JSZip from 'jszip';
import NodeID3 from 'node-id3';
import * as z from 'zod';
import type { Db } from '../../db/database.js';
import type { JobPartsTable, JobsTable, User } from '../../db/schema.js';
import { timingRoutes } from '../../http/timing-routes.js';
import type { Scheduler } from '../../lib/schedule.js';
import type { SpeechService } from '../../lib/speech.js';
import { sendStoredObject } from '../../lib/storage/send.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { apiVoiceSettings } from '../../services/conversion/settings.js';
import { type Chapter, DocumentError, readDocument } from './documents.js';
import { splitParts } from './parts.js';
import {
  createJobRunner,
  type JobChapterRecord,
  type JobRunner,
  type JobRunnerOptions,
  jobKeys,
  safeName,
} from './runner.js';

const ChapterChoicesSchema = z.array(ChapterChoiceSchema).min(1);

/** Days a job and its audio are kept once it has ended. */
export const JOB_RETENTION_DAYS = 30;

/** The largest document accepted. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

export const JOB_MESSAGES = {
  paidPlanNeeded:
    'Jobs are part of the paid plans: choose BASIC, PREMIUM or BUSINESS to convert documents.',
  documentMissing: 'Attach the document in the multipart field "document".',
  tooLarge: `The document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB.`,
  overPlan: (characters: number, limit: number, plan: string) =>
    `This job has ${characters.toLocaleString('en-US')} characters; the ${plan} plan allows ${limit.toLocaleString('en-US')} per job.`,
  notEnough: (characters: number, left: number) =>
    `This job needs ${characters.toLocaleString('en-US')} characters and ${left.toLocaleString('en-US')} remain on your plan.`,
  badChapters: (count: number) =>
    `chapters must list chapters of the document by index, from 0 to ${count - 1}, each once.`,
  notFound: 'No such job.',
  notDone: 'The job has no audio yet.',
  deleted: 'The job and its audio are deleted.',
};

export interface JobRoutesOptions {
  db: Db;
  speech: SpeechService;
  storage: ObjectStorage;
  scheduler: Scheduler;
  now?: () => Date;
  runner?: Omit<JobRunnerOptions, 'db' | 'speech' | 'storage' | 'log'>;
}

const bearer: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKey: [] }];

/** The multipart fields a job takes besides the document. */
const FIELDS = new Set([...Object.keys(JobSettingsSchema.shape), 'title', 'chapters']);

export const jobRoutes: FastifyPluginAsyncZod<JobRoutesOptions> = async (app, options) => {
  const { db, speech, storage } = options;
  const runner: JobRunner = createJobRunner({
    db,
    speech,
    storage,
    log: app.log,
    ...options.runner,
  });
  app.addHook('onReady', async () => runner.start());
  app.addHook('onClose', async () => runner.stop());

  // A job and its files are kept 30 days after it ended, as saved files are (SPEC §9).
  const now = options.now ?? (() => new Date());
  async function purge(): Promise<number> {
    const before = new Date(now().getTime() - JOB_RETENTION_DAYS * 86_400_000).toISOString();
    const ended = await db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['done', 'failed', 'cancelled'])
      .where((eb) => eb.or([eb('finished_at', '<', before), eb('finished_at', 'is', null)]))
      .where('updated_at', '<', before)
      .execute();
    for (const { id } of ended) await remove(id);
    return ended.length;
  }
  /** An ended job, its files first: a failure leaves a listed job, never a job without audio. */
  async function remove(id: string): Promise<void> {
    for (const { key } of await storage.list(`jobs/${id}`)) await storage.remove(key);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('job_parts').where('job_id', '=', id).execute();
      await trx.deleteFrom('jobs').where('id', '=', id).execute();
    });
  }
  options.scheduler.every('job-purge', 60 * 60 * 1000, async () => {
    const count = await purge();
    if (count > 0) app.log.info({ count }, 'ended jobs purged');
  });

  await app.register(multipart, {
    limits: {
      fileSize: MAX_DOCUMENT_BYTES,
      files: 1,
      fields: FIELDS.size,
      fieldSize: 64 * 1024,
      parts: FIELDS.size + 1,
    },
  });

  async function requirePaidPlan(request: FastifyRequest, reply: FastifyReply) {
    await app.requireUser(request, reply);
    if (reply.sent) return;
    if (request.user.role === 'USER' && request.user.plan_type === 'FREE') {
      return reply.code(403).send({ message: JOB_MESSAGES.paidPlanNeeded });
    }
  }

  type Read =
    | { ok: true; document?: { bytes: Buffer; name: string }; fields: Record<string, string> }
    | { ok: false; status: number; message: string };

  /** A multipart body: the document and the text fields, within the limits. */
  async function readMultipart(request: FastifyRequest): Promise<Read> {
    const fields: Record<string, string> = {};
    let document: { bytes: Buffer; name: string } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'document') {
            part.file.resume();
            return { ok: false, status: 400, message: `Unknown field: ${part.fieldname}.` };
          }
          document = { bytes: await part.toBuffer(), name: part.filename || 'document' };
        } else if (FIELDS.has(part.fieldname)) {
          fields[part.fieldname] = String(part.value);
        } else {
          return { ok: false, status: 400, message: `Unknown field: ${part.fieldname}.` };
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        return { ok: false, status: 413, message: JOB_MESSAGES.tooLarge };
      if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
        return {
          ok: false,
          status: 413,
          message: 'Too many fields: send one document and the voice settings.',
        };
      }
      request.log.info({ err: error }, 'malformed multipart body');
      return { ok: false, status: 400, message: JOB_MESSAGES.documentMissing };
    }
    return { ok: true, ...(document && { document }), fields };
  }

  const firstIssue = (error: z.core.$ZodError) => {
    const issue = error.issues[0];
    const field = issue?.path.join('.') ?? '';
    return issue?.message && field && !issue.message.startsWith(field)
      ? `${field}: ${issue.message}`
      : (issue?.message ?? 'Invalid job.');
  };

  async function parse(document: { bytes: Buffer; name: string }) {
    try {
      return { ok: true as const, parsed: await readDocument(document.bytes, document.name) };
    } catch (error) {
      if (error instanceof DocumentError) return { ok: false as const, message: error.message };
      throw error;
    }
  }

  app.post(
    '/preview',
    {
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
      if (!request.isMultipart())
        return reply.code(400).send({ message: JOB_MESSAGES.documentMissing });
      const read = await readMultipart(request);
      if (!read.ok) return reply.code(read.status).send({ message: read.message });
      if (!read.document) return reply.code(400).send({ message: JOB_MESSAGES.documentMissing });
      const result = await parse(read.document);
      if (!result.ok) return reply.code(422).send({ message: result.message });
      const { parsed } = result;
      return {
        title: parsed.title,
        source: parsed.format,
        characters: parsed.chapters.reduce((sum, c) => sum + countCharacters(c.text), 0),
        chapters: parsed.chapters.map((chapter, index) => ({
          index,
          title: chapter.title,
          characters: countCharacters(chapter.text),
          excerpt: excerpt(chapter.text),
        })),
      };
    },
  );

  app.post(
    '/',
    {
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
      const user = request.user;
      let chapters: Chapter[];
      let title: string;
      let source: Job['source'];
      let input: JobSettings;
      if (request.isMultipart()) {
        const read = await readMultipart(request);
        if (!read.ok) return reply.code(read.status).send({ message: read.message });
        if (!read.document) return reply.code(400).send({ message: JOB_MESSAGES.documentMissing });
        const { chapters: choice, title: named, ...fields } = read.fields;
        const settings = JobSettingsSchema.safeParse({
          ...fields,
          ...(fields.effect === '' && { effect: null }),
        });
        if (!settings.success) return reply.code(400).send({ message: firstIssue(settings.error) });
        input = settings.data;
        const result = await parse(read.document);
        if (!result.ok) return reply.code(422).send({ message: result.message });
        chapters = result.parsed.chapters;
        if (choice !== undefined) {
          const chosen = chooseChapters(chapters, choice);
          if (!chosen.ok) return reply.code(400).send({ message: chosen.message });
          chapters = chosen.chapters;
        }
        title = named?.trim() || result.parsed.title;
        source = result.parsed.format;
      } else {
        const body = JobTextInputSchema.safeParse(request.body ?? {});
        if (!body.success) return reply.code(400).send({ message: firstIssue(body.error) });
        const { text, chapters: given, title: named, ...settings } = body.data;
        input = settings;
        chapters = given ?? [{ title: named ?? 'Text', text: text ?? '' }];
        title = named ?? chapters[0]?.title ?? 'Text';
        source = 'text';
      }
      // What is charged: the parts' characters (the blank lines between parts are not).
      const parts = chapters.map((chapter) => splitParts(chapter.text));
      const characters = parts.flat().reduce((sum, text) => sum + countCharacters(text), 0);
      const check = await checkSettings(input, chapters[0]?.text ?? '');
      if (!check.ok) return reply.code(400).send({ message: check.message });
      const refused = allowance(user, characters);
      if (refused) return reply.code(refused.status).send({ message: refused.message });
      const id = randomUUID();
      const now = new Date().toISOString();
      const { text: _text, ...settings } = check.settings;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('jobs')
          .values({
            id,
            user_id: user.id,
            title: title.slice(0, 200),
            source,
            status: 'queued',
            settings: JSON.stringify(settings),
            output_format: settings.output_format,
            characters,
            chapters: JSON.stringify(
              chapters.map(
                (c, index): JobChapterRecord => ({
                  title: c.title,
                  characters: (parts[index] ?? []).reduce((sum, t) => sum + countCharacters(t), 0),
                }),
              ),
            ),
            audio_key: null,
            audio_size: null,
            duration: null,
            error: null,
            lease_owner: null,
            lease_until: null,
            started_at: null,
            finished_at: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        const rows = parts.flatMap((texts, index) =>
          texts.map((text, part) => ({
            job_id: id,
            chapter: index,
            part,
            text,
            characters: countCharacters(text),
            status: 'pending',
            duration: null,
          })),
        );
        // In batches: a database takes a bounded number of values in one statement.
        for (let at = 0; at < rows.length; at += 200) {
          await trx
            .insertInto('job_parts')
            .values(rows.slice(at, at + 200))
            .execute();
        }
      });
      runner.wake();
      return reply.code(202).send({ id, status: 'queued' as const });
    },
  );

  /** The full voice settings of a job, checked as a conversion's are (SPEC §3, §5). */
  async function checkSettings(input: JobSettings, sample: string) {
    const languages = await speech.listVoices();
    const settings = apiVoiceSettings(languages, {
      text: sample,
      ...(input.voice_id && { voice: input.voice_id }),
      ...(input.language_code && { language: input.language_code }),
      // A voice id says its engine (standard:…, neural:…) when the engine is not given.
      ...((input.engine ?? engineOf(input.voice_id)) && {
        engine: input.engine ?? engineOf(input.voice_id),
      }),
      ...(input.output_format && { format: input.output_format }),
      ...(input.sample_rate !== undefined && { sample_rate: input.sample_rate as 8000 }),
      ...(input.effect !== undefined && { effect: input.effect }),
      ...(input.master_speed !== undefined && { speed: input.master_speed }),
      ...(input.master_volume !== undefined && { volume: input.master_volume }),
      ...(input.master_pitch !== undefined && { pitch: input.master_pitch }),
    });
    if (!settings.voice_id) {
      return {
        ok: false as const,
        message: `No ${settings.engine} voice speaks ${settings.language_code}; choose another engine or language (GET /api/convertor/voices).`,
      };
    }
    const valid = VoiceSettingsSchema.safeParse(settings);
    if (!valid.success) return { ok: false as const, message: firstIssue(valid.error) };
    const known = languages.some((l) =>
      l.voices.some((v) => v.id === valid.data.voice_id && v.engine === valid.data.engine),
    );
    if (!known) {
      return {
        ok: false as const,
        message: `voice_id: no ${valid.data.engine} voice "${valid.data.voice_id}"; see GET /api/convertor/voices.`,
      };
    }
    return { ok: true as const, settings: valid.data };
  }

  function allowance(user: User, characters: number) {
    const plan = user.plan_type as PlanType;
    const limit = user.role === 'ADMIN' ? Number.POSITIVE_INFINITY : JOB_CHARACTER_LIMITS[plan];
    if (characters > limit)
      return { status: 413, message: JOB_MESSAGES.overPlan(characters, limit, plan) };
    if (characters > user.count_characters) {
      return { status: 402, message: JOB_MESSAGES.notEnough(characters, user.count_characters) };
    }
    return undefined;
  }

  async function findOwn(request: FastifyRequest) {
    const { id } = request.params as { id: string };
    return db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', request.user.id)
      .executeTakeFirst();
  }

  /** The catalogue's names of a job's language and voice (its codes where unknown). */
  async function namer() {
    const languages = await speech.listVoices();
    return (settings: VoiceSettings) => {
      const language = languages.find((entry) => entry.language_code === settings.language_code);
      const voice = language?.voices.find((entry) => entry.id === settings.voice_id);
      return {
        language: language?.language_name ?? settings.language_code,
        voice: voice?.name ?? settings.voice_id,
      };
    };
  }

  type PartState = Pick<JobPartsTable, 'chapter' | 'characters' | 'status' | 'duration'>;

  /** The parts of some jobs, in order, by job: one query however many jobs are listed. */
  async function partsOf(ids: string[]): Promise<Map<string, PartState[]>> {
    const byJob = new Map<string, PartState[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return byJob;
    const rows = await db
      .selectFrom('job_parts')
      .select(['job_id', 'chapter', 'characters', 'status', 'duration'])
      .where('job_id', 'in', ids)
      .orderBy('job_id')
      .orderBy('chapter')
      .orderBy('part')
      .execute();
    for (const { job_id, ...part } of rows) byJob.get(job_id)?.push(part);
    return byJob;
  }

  /** A job as the API describes it, from its row, its parts and the catalogue's names. */
  async function describe(jobs: JobsTable[]): Promise<Job[]> {
    const [names, parts] = await Promise.all([namer(), partsOf(jobs.map((job) => job.id))]);
    return jobs.map((job) => describeOne(job, parts.get(job.id) ?? [], names));
  }

  function describeOne(
    job: JobsTable,
    parts: PartState[],
    names: Awaited<ReturnType<typeof namer>>,
  ): Job {
    const settings = JSON.parse(job.settings) as VoiceSettings;
    const records = JSON.parse(job.chapters) as JobChapterRecord[];
    const done = parts.filter((p) => p.status === 'done');
    const doneCharacters =
      job.status === 'done' ? job.characters : done.reduce((s, p) => s + p.characters, 0);
    const chapters = records.map((record, index) => {
      const own = parts.filter((p) => p.chapter === index);
      const before = parts.filter((p) => p.chapter < index);
      const finished =
        job.status === 'done' || (own.length > 0 && own.every((p) => p.status === 'done'));
      const start =
        before.every((p) => p.status === 'done') && finished
          ? before.reduce((s, p) => s + (p.duration ?? 0), 0)
          : null;
      return { title: record.title, characters: record.characters, start, done: finished };
    });
    const elapsed = job.started_at ? (Date.now() - Date.parse(job.started_at)) / 1000 : 0;
    const running = job.status === 'running' || job.status === 'queued';
    const secondsLeft =
      running && doneCharacters > 0
        ? Math.round((elapsed / doneCharacters) * (job.characters - doneCharacters))
        : null;
    const ready = job.status === 'done' && job.audio_key !== null;
    return {
      id: job.id,
      title: job.title,
      source: job.source as Job['source'],
      status: job.status as Job['status'],
      output_format: job.output_format as Job['output_format'],
      engine: settings.engine,
      language_code: settings.language_code,
      voice_id: settings.voice_id,
      ...names(settings),
      characters: job.characters,
      progress: {
        fraction: job.characters > 0 ? Math.min(1, doneCharacters / job.characters) : 0,
        characters_done: doneCharacters,
        chapters_done: chapters.filter((c) => c.done).length,
        chapters: chapters.length,
        seconds_left: secondsLeft,
      },
      chapters,
      path: ready ? `/api/jobs/${job.id}/audio` : null,
      duration: ready ? job.duration : null,
      size: ready && job.audio_size !== null ? Number(job.audio_size) : null,
      marks_path: ready ? `/api/jobs/marks/${job.id}` : null,
      subtitles_path: ready ? `/api/jobs/subtitles/${job.id}` : null,
      chapters_path: ready ? `/api/jobs/${job.id}/chapters` : null,
      text_path: ready ? `/api/jobs/${job.id}/text` : null,
      error: job.error,
      created_at: job.created_at,
      updated_at: job.updated_at,
      finished_at: job.finished_at,
    };
  }

  app.get(
    '/',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['jobs'],
        summary: "The user's jobs, newest first",
        security: bearer,
        response: { 200: JobListSchema, '4xx': ErrorResponseSchema },
      },
    },
    async (request) => {
      const jobs = await db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', request.user.id)
        .orderBy('created_at', 'desc')
        .limit(100)
        .execute();
      return describe(jobs);
    },
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
      const now = new Date().toISOString();
      const cancelled = await db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: now, updated_at: now })
        .where('id', '=', job.id)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      if (Number(cancelled.numUpdatedRows) === 1) {
        const after = await findOwn(request);
        const [described] = await describe([after ?? job]);
        return described;
      }
      await remove(job.id);
      return { message: JOB_MESSAGES.deleted };
    },
  );

  /** A file of a finished job, sent as a download named after the job. */
  function download(
    path: string,
    summary: string,
    produces: string[],
    file: (job: JobsTable) => { key: string; type: string; extension: string },
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
        const job = await findOwn(request);
        if (!job) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
        if (job.status !== 'done' || !job.audio_key) {
          return reply.code(409).send({ message: JOB_MESSAGES.notDone });
        }
        const { key, type, extension } = file(job);
        const sent = await sendStoredObject(request, reply, storage, key, {
          'content-type': type,
          'content-disposition': `attachment; filename="${safeName(job.title).replace(/"/g, '')}.${extension}"`,
          'cache-control': 'private, max-age=3600',
        });
        if (!sent) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
        return reply;
      },
    );
  }
  download(
    '/:id/audio',
    "The job's audio, one file with its chapters marked (ID3 CHAP in mp3, chapter comments in ogg)",
    ['audio/mpeg', 'audio/ogg', 'audio/wav'],
    (job) => ({
      key: job.audio_key ?? '',
      type: MIME_TYPES[job.output_format as 'mp3'],
      extension: job.output_format,
    }),
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
      const job = await findOwn(request);
      if (!job) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
      if (job.status !== 'done' || !job.audio_key) {
        return reply.code(409).send({ message: JOB_MESSAGES.notDone });
      }
      const audioKey = job.audio_key;
      const chapters = JSON.parse(job.chapters) as JobChapterRecord[];
      const { sample_rate: sampleRate } = JSON.parse(job.settings) as { sample_rate: number };
      const zip = new JSZip();
      const width = String(chapters.length).length;
      chapters.forEach((chapter, index) => {
        const name = `${String(index + 1).padStart(width, '0')} ${safeName(chapter.title)}.${job.output_format}`;
        if (chapter.key) {
          // An Ogg chapter was encoded as a file of its own.
          const own = chapter.key;
          async function* whole() {
            const stream = await storage.read(own);
            if (stream) yield* stream;
          }
          zip.file(name, Readable.from(whole()), { binary: true });
          return;
        }
        const [from, to] = chapter.bytes ?? [0, 0];
        // Each chapter: its own tag (mp3) or header (wav), then its bytes of the whole file.
        const head =
          job.output_format === 'mp3'
            ? NodeID3.create({
                title: chapter.title,
                album: job.title,
                trackNumber: `${index + 1}/${chapters.length}`,
              })
            : wavHeader(sampleRate, to - from);
        async function* file() {
          yield head;
          if (to > from) {
            const stream = await storage.read(audioKey, { start: from, end: to - 1 });
            if (stream) yield* stream;
          }
        }
        zip.file(name, Readable.from(file()), { binary: true });
      });
      reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${safeName(job.title).replace(/"/g, '')}.zip"`,
        )
        .header('cache-control', 'private, max-age=3600');
      // Stored, not compressed: audio does not compress; streamed as it is made.
      // A stream, not the JSON of the response schema (as sendStoredObject sends audio).
      const untyped: FastifyReply = reply;
      return untyped.send(zip.generateNodeStream({ streamFiles: true, compression: 'STORE' }));
    },
  );
  download('/:id/text', 'The text the job read, chapter after chapter', ['text/plain'], (job) => ({
    key: jobKeys.text(job.id),
    type: 'text/plain; charset=utf-8',
    extension: 'txt',
  }));

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
        const job = await db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', id)
          .where('user_id', '=', userId ?? '')
          .where('status', '=', 'done')
          .executeTakeFirst();
        return job?.audio_key
          ? { audioKey: job.audio_key, duration: job.duration ?? 0, name: job.title }
          : undefined;
      },
    }),
  );
};

function engineOf(voiceId: string | undefined): Engine | undefined {
  const prefix = voiceId?.split(':')[0];
  return (ENGINES as readonly string[]).includes(prefix ?? '') ? (prefix as Engine) : undefined;
}

/** A chapter's first words, for the preview. */
function excerpt(text: string): string {
  const words = text.slice(0, 200).split(/\s+/);
  return text.length > 200 ? `${words.slice(0, -1).join(' ')}…` : text;
}

/** The user's choice of chapters (JSON [{index, title?}]): kept in that order, renamed. */
function chooseChapters(
  chapters: Chapter[],
  choice: string,
): { ok: true; chapters: Chapter[] } | { ok: false; message: string } {
  const refused = { ok: false as const, message: JOB_MESSAGES.badChapters(chapters.length) };
  let list: z.infer<typeof ChapterChoicesSchema>;
  try {
    const parsed = ChapterChoicesSchema.safeParse(JSON.parse(choice));
    if (!parsed.success) return refused;
    list = parsed.data;
  } catch {
    return refused;
  }
  const indexes = list.map((entry) => entry.index);
  if (new Set(indexes).size !== indexes.length || indexes.some((i) => i >= chapters.length)) {
    return refused;
  }
  return {
    ok: true,
    chapters: list.map(({ index, title }) => {
      const chapter = chapters[index] as Chapter;
      return { title: title ?? chapter.title, text: chapter.text };
    }),
  };
}
