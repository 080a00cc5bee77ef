import { Readable } from 'node:stream';
import { MIME_TYPES, wavHeader } from '@parla/speech';
import type { FastifyReply, FastifyRequest } from 'fastify';
import JSZip from 'jszip';
import NodeID3 from 'node-id3';
import type { JobsTable } from '../../db/schema.js';
import { dispositionOf, fileNameOf } from '../../http/content-disposition.js';
import { sendStoredObject } from '../../lib/storage/send.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { JOB_MESSAGES } from './messages.js';
import { type JobChapterRecord, jobKeys } from './repository.js';

/** A job whose audio is ready. */
export type DoneJob = JobsTable & { audio_key: string };

export const isDone = (job: JobsTable): job is DoneJob =>
  job.status === 'done' && Boolean(job.audio_key);

/** A stored file of a finished job, and what it is sent as. */
export interface JobFile {
  key: string;
  type: string;
  extension: string;
}

export const jobFiles = {
  audio: (job: DoneJob): JobFile => ({
    key: job.audio_key,
    type: MIME_TYPES[job.output_format as 'mp3'],
    extension: job.output_format,
  }),
  text: (job: DoneJob): JobFile => ({
    key: jobKeys.text(job.id),
    type: 'text/plain; charset=utf-8',
    extension: 'txt',
  }),
};

/** A file of a finished job, sent as a download named after the job (404 when it is gone). */
export async function sendJobFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: ObjectStorage,
  job: DoneJob,
  { key, type, extension }: JobFile,
): Promise<FastifyReply> {
  const sent = await sendStoredObject(request, reply, storage, key, {
    'content-type': type,
    'content-disposition': attachment(job.title, extension),
    'cache-control': 'private, max-age=3600',
  });
  if (!sent) return reply.code(404).send({ message: JOB_MESSAGES.notFound });
  return reply;
}

/**
 * A finished job's chapters, one audio file each, in a zip made as it is sent: stored, not
 * compressed (audio does not compress).
 */
export function sendChapters(
  reply: FastifyReply,
  storage: ObjectStorage,
  job: DoneJob,
): FastifyReply {
  const audioKey = job.audio_key;
  const chapters = JSON.parse(job.chapters) as JobChapterRecord[];
  const { sample_rate: sampleRate } = JSON.parse(job.settings) as { sample_rate: number };
  const zip = new JSZip();
  const width = String(chapters.length).length;
  chapters.forEach((chapter, index) => {
    const name = `${String(index + 1).padStart(width, '0')} ${fileNameOf(chapter.title, 'chapter')}.${job.output_format}`;
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
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', attachment(job.title, 'zip'))
    .header('cache-control', 'private, max-age=3600')
    .send(zip.generateNodeStream({ streamFiles: true, compression: 'STORE' }));
}

/** A download named after the job's title ("audiobook" in ASCII when nothing of it is). */
const attachment = (title: string, extension: string) =>
  dispositionOf('attachment', title, extension, 'audiobook');
