import multipart from '@fastify/multipart';
import {
  AudioBodySchema,
  ErrorResponseSchema,
  FILE_UPLOAD_FIELDS,
  FileIdParamsSchema,
  FileListSchema,
  type FileMediaQuery,
  FileMediaQuerySchema,
  FileSchema,
  formatFileSize,
  MessageResponseSchema,
  maxAudioBytes,
  maxConversionSeconds,
  StorageUsageSchema,
  TextBodySchema,
} from '@parla/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { dispositionOf } from '../../http/content-disposition.js';
import type { Scheduler } from '../../lib/schedule.js';
import type { SpeechService } from '../../lib/speech.js';
import { sendStoredObject } from '../../lib/storage/send.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { AUDIO_CHECK_MESSAGES, checkSavedAudio } from '../../services/files/audio-probe.js';
import {
  createFileRepository,
  type FileMetadata,
  toSavedFile,
} from '../../services/files/repository.js';
import { type PlanStore, storageQuota } from '../../services/plans/plan-store.js';
import { savedFileTimingRoutes } from './marks.js';

export interface FileRoutesOptions {
  db: Db;
  /** The installation's storage seen under `saved/` (app.ts). */
  storage: ObjectStorage;
  speech: Pick<SpeechService, 'listVoices'>;
  /** Runs the 30-day purge once per installation, at start and hourly. */
  scheduler: Scheduler;
  /** The plans' storage quotas (a user keeps the one they bought). */
  plans: PlanStore;
  now?: () => Date;
}

/**
 * No upload is read beyond this, whatever the plan (about 35 min of 16 kHz WAV); the plan's own
 * bound (`maxAudioBytes` of its longest conversion) is usually lower.
 */
export const MAX_MEDIA_BYTES = 64 * 1024 * 1024;
export const MAX_SSML_BYTES = 1024 * 1024;

export const FILE_MESSAGES = {
  paidPlanNeeded:
    'Saving files is part of the paid plans. Buy a plan on the Pricing page to keep your audio for 30 days.',
  notFound: 'This file does not exist or was deleted.',
  noSsml: 'No SSML was saved with this file.',
  mediaMissing: 'Attach the audio in the multipart field "media".',
  ssmlMissing: 'Attach the SSML in the multipart field "ssml".',
  notAudio: AUDIO_CHECK_MESSAGES.notAudio,
  formatMismatch: AUDIO_CHECK_MESSAGES.formatMismatch,
  quotaFull: (total: number, quota: number) =>
    `Saving this would use ${formatFileSize(total)} of the ${formatFileSize(quota)} your plan keeps. Delete some saved files or buy a bigger plan, then save again.`,
  tooLarge: `The upload is too large (at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB).`,
  ssmlTooLarge: 'The SSML is too large (at most 1 MB).',
  deleted: 'The file is deleted.',
} as const;

const bearer = [{ bearerAuth: [] }];

/**
 * The saved-file history (SPEC §2 File History, §7 /file calls): signed-in users with a paid
 * plan (or a role other than USER, SPEC §6) only, each seeing only their own files.
 */
export const fileRoutes: FastifyPluginAsyncZod<FileRoutesOptions> = async (app, options) => {
  const now = options.now ?? (() => new Date());
  const files = createFileRepository(options.db, options.storage, now);

  await app.register(multipart, {
    limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 2, fieldSize: MAX_SSML_BYTES, parts: 3 },
  });

  options.scheduler.every('saved-file-purge', 60 * 60 * 1000, async () => {
    const count = await files.purge();
    if (count > 0) app.log.info({ count }, 'saved files purged');
  });

  async function requirePaidPlan(request: FastifyRequest, reply: FastifyReply) {
    await app.requireUser(request, reply);
    if (reply.sent) return;
    if (request.user.role === 'USER' && request.user.plan_type === 'FREE') {
      return reply.code(403).send({ message: FILE_MESSAGES.paidPlanNeeded });
    }
  }

  await app.register(
    savedFileTimingRoutes({ files, storage: options.storage, preHandler: requirePaidPlan }),
  );

  /** Display names of the language and voice, from the real catalogue (codes if unknown). */
  async function metadata(query: FileMetadata['query']): Promise<FileMetadata> {
    const languages = await options.speech.listVoices();
    const language = languages.find((entry) => entry.language_code === query.language);
    const voice = language?.voices.find((entry) => entry.id === query.voice);
    return {
      query,
      language: language?.language_name ?? query.language,
      voice: voice?.name ?? query.voice,
    };
  }

  type Upload = { ok: true; bytes: Buffer } | { ok: false; status: number; message: string };

  /** The one multipart file (or text field) named `field`, read within the limits. */
  async function readPart(
    request: FastifyRequest,
    field: string,
    tooLarge: string,
  ): Promise<Upload> {
    if (!request.isMultipart()) return { ok: false, status: 400, message: `${field}` };
    try {
      for await (const part of request.parts()) {
        if (part.fieldname !== field) {
          if (part.type === 'file') part.file.resume();
          continue;
        }
        if (part.type === 'file') return { ok: true, bytes: await part.toBuffer() };
        return { ok: true, bytes: Buffer.from(String(part.value), 'utf8') };
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (
        code === 'FST_REQ_FILE_TOO_LARGE' ||
        code === 'FST_FIELDS_LIMIT' ||
        code === 'FST_PARTS_LIMIT'
      ) {
        return { ok: false, status: 413, message: tooLarge };
      }
      // Anything else is a malformed body (no boundary, a cut-off part): the field is missing.
      request.log.info({ err: error }, 'malformed multipart body');
    }
    return { ok: false, status: 400, message: field };
  }

  /**
   * The uploaded audio, checked: it decodes as the format and rate the query claims, is no
   * bigger or longer than the user's plan can convert, and fits in the plan's storage quota
   * (counting the file it replaces as freed).
   */
  async function readAudio(
    request: FastifyRequest,
    query: { audio_format: FileMediaQuery['audio_format']; audio_sample_rate: number },
    replacing?: { size: number },
  ) {
    const upload = await readPart(request, FILE_UPLOAD_FIELDS.media, FILE_MESSAGES.tooLarge);
    if (!upload.ok) {
      return {
        ok: false as const,
        status: upload.status,
        message: upload.status === 413 ? upload.message : FILE_MESSAGES.mediaMissing,
      };
    }
    const { user } = request;
    const maxSeconds = maxConversionSeconds(user.count_characters_per_convert);
    const checked = await checkSavedAudio(
      upload.bytes,
      { format: query.audio_format, sampleRate: query.audio_sample_rate },
      {
        maxSeconds,
        maxBytes: maxAudioBytes(query.audio_format, query.audio_sample_rate, maxSeconds),
      },
    );
    if (!checked.ok) return checked;
    const quota = storageQuota(user, await options.plans.catalogue());
    const total =
      (await files.usedBytes(user.id)) - (replacing?.size ?? 0) + upload.bytes.byteLength;
    if (total > quota) {
      return { ok: false as const, status: 413, message: FILE_MESSAGES.quotaFull(total, quota) };
    }
    return { ok: true as const, bytes: upload.bytes, probed: checked.probed };
  }

  const errors = { 400: ErrorResponseSchema, 403: ErrorResponseSchema, 404: ErrorResponseSchema };

  app.get(
    '/',
    {
      // Every signed-in user: File History is a signed-in page (SPEC §2); saving is paid.
      preHandler: app.requireUser,
      schema: {
        tags: ['file'],
        summary: "The user's saved files, most recently saved first (FREE: none, saving is paid)",
        security: bearer,
        response: { 200: FileListSchema, ...errors },
      },
    },
    async (request) => (await files.list(request.user.id)).map(toSavedFile),
  );

  app.get(
    '/usage',
    {
      // Every signed-in user: My Plan shows the quota of each plan, FREE included.
      preHandler: app.requireUser,
      schema: {
        tags: ['file'],
        summary: "Bytes the user's saved files use, and their plan's storage quota",
        security: bearer,
        response: { 200: StorageUsageSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      used_bytes: await files.usedBytes(request.user.id),
      quota_bytes: storageQuota(request.user, await options.plans.catalogue()),
    }),
  );

  app.get(
    '/:id',
    {
      preHandler: requirePaidPlan,
      schema: {
        tags: ['file'],
        summary: 'One saved file',
        security: bearer,
        params: FileIdParamsSchema,
        response: { 200: FileSchema, ...errors },
      },
    },
    async (request, reply) => {
      const file = await files.find(request.user.id, request.params.id);
      if (!file) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      return toSavedFile(file);
    },
  );

  app.delete(
    '/:id',
    {
      preHandler: requirePaidPlan,
      schema: {
        tags: ['file'],
        summary: 'Delete a saved file with its audio',
        security: bearer,
        params: FileIdParamsSchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const removed = await files.remove(request.user.id, request.params.id);
      if (!removed) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      return { message: FILE_MESSAGES.deleted };
    },
  );

  app.get(
    '/media/:id',
    {
      preHandler: requirePaidPlan,
      schema: {
        tags: ['file'],
        summary: 'The audio of a saved file',
        security: bearer,
        params: FileIdParamsSchema,
        produces: ['audio/mpeg', 'audio/ogg', 'audio/wav'],
        response: { 200: AudioBodySchema, 206: AudioBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const file = await files.find(request.user.id, request.params.id);
      // Streamed from the storage, with Range support; not in the response schema on purpose:
      // audio is not JSON.
      const sent =
        file &&
        (await sendStoredObject(
          request,
          reply as unknown as FastifyReply,
          options.storage,
          file.storage_key,
          {
            'content-type': file.mime_type,
            'cache-control': 'private, no-store',
            'content-disposition': dispositionOf(
              'inline',
              `parla-${file.id}`,
              file.audio_format,
              'parla',
            ),
          },
        ));
      if (!sent) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      return reply;
    },
  );

  app.get(
    '/ssml/:id',
    {
      preHandler: requirePaidPlan,
      schema: {
        tags: ['file'],
        summary: 'The SSML a saved file was made from',
        security: bearer,
        params: FileIdParamsSchema,
        produces: ['application/ssml+xml'],
        response: { 200: TextBodySchema('The SSML document'), ...errors },
      },
    },
    async (request, reply) => {
      const file = await files.find(request.user.id, request.params.id);
      if (!file) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      if (file.ssml === null) return reply.code(404).send({ message: FILE_MESSAGES.noSsml });
      const raw = reply as unknown as FastifyReply;
      return raw
        .header('content-type', 'application/ssml+xml; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .send(file.ssml);
    },
  );

  app.post(
    '/media',
    {
      preHandler: requirePaidPlan,
      bodyLimit: MAX_MEDIA_BYTES + 64 * 1024,
      schema: {
        tags: ['file'],
        summary: 'Save converted audio (multipart field "media"); settings in the query',
        security: bearer,
        querystring: FileMediaQuerySchema,
        response: { 200: FileSchema, 413: ErrorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const audio = await readAudio(request, request.query);
      if (!audio.ok) return reply.code(audio.status as 400).send({ message: audio.message });
      const row = await files.create(
        request.user.id,
        audio.bytes,
        audio.probed,
        await metadata(request.query),
      );
      return toSavedFile(row);
    },
  );

  app.put(
    '/media/:id',
    {
      preHandler: requirePaidPlan,
      bodyLimit: MAX_MEDIA_BYTES + 64 * 1024,
      schema: {
        tags: ['file'],
        summary: 'Overwrite the audio and settings of a saved file',
        security: bearer,
        params: FileIdParamsSchema,
        querystring: FileMediaQuerySchema,
        response: { 200: FileSchema, 413: ErrorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const existing = await files.find(request.user.id, request.params.id);
      if (!existing) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      const audio = await readAudio(request, request.query, existing);
      if (!audio.ok) return reply.code(audio.status as 400).send({ message: audio.message });
      const row = await files.replace(
        request.user.id,
        request.params.id,
        audio.bytes,
        audio.probed,
        await metadata(request.query),
      );
      if (!row) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      return toSavedFile(row);
    },
  );

  app.post(
    '/ssml/:id',
    {
      preHandler: requirePaidPlan,
      bodyLimit: MAX_SSML_BYTES + 64 * 1024,
      schema: {
        tags: ['file'],
        summary: 'Save the SSML of a saved file (multipart field "ssml"); the id is the media _id',
        security: bearer,
        params: FileIdParamsSchema,
        response: { 200: FileSchema, 413: ErrorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!(await files.find(request.user.id, request.params.id))) {
        return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      }
      const upload = await readPart(request, FILE_UPLOAD_FIELDS.ssml, FILE_MESSAGES.ssmlTooLarge);
      if (!upload.ok) {
        const message = upload.status === 413 ? upload.message : FILE_MESSAGES.ssmlMissing;
        return reply.code(upload.status as 400).send({ message });
      }
      if (upload.bytes.byteLength > MAX_SSML_BYTES) {
        return reply.code(413).send({ message: FILE_MESSAGES.ssmlTooLarge });
      }
      const row = await files.setSsml(
        request.user.id,
        request.params.id,
        upload.bytes.toString('utf8'),
      );
      if (!row) return reply.code(404).send({ message: FILE_MESSAGES.notFound });
      return toSavedFile(row);
    },
  );
};
