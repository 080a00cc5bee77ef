import { countCharacters, type DocumentPreview, JobSettingsSchema } from '@parla/contract';
import type { FastifyRequest } from 'fastify';
import { DocumentError, MAX_DOCUMENT_BYTES, type ParsedDocument } from './documents.js';
import { JOB_MESSAGES, type Refusal, refuse } from './messages.js';
import { type ReaderPool, ReadersBusyError } from './reader-pool.js';

/** The multipart fields a job takes besides the document. */
const FIELDS = new Set([...Object.keys(JobSettingsSchema.shape), 'title', 'chapters']);

/** @fastify/multipart's limits: one document and the job's fields, each bounded. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_DOCUMENT_BYTES,
  files: 1,
  fields: FIELDS.size,
  fieldSize: 64 * 1024,
  parts: FIELDS.size + 1,
};

export interface Upload {
  document: { bytes: Buffer; name: string };
  /** The text fields, by name. */
  fields: Record<string, string>;
}

/** A multipart body: the document and the text fields, within the limits. */
export async function readUpload(
  request: FastifyRequest,
): Promise<{ ok: true; upload: Upload } | Refusal> {
  if (!request.isMultipart()) return refuse(400, JOB_MESSAGES.documentMissing);
  const fields: Record<string, string> = {};
  let document: Upload['document'] | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'document') {
          part.file.resume();
          return refuse(400, `Unknown field: ${part.fieldname}.`);
        }
        document = { bytes: await part.toBuffer(), name: part.filename || 'document' };
      } else if (FIELDS.has(part.fieldname)) {
        fields[part.fieldname] = String(part.value);
      } else {
        return refuse(400, `Unknown field: ${part.fieldname}.`);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') return refuse(413, JOB_MESSAGES.tooLarge);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
      return refuse(413, 'Too many fields: send one document and the voice settings.');
    }
    request.log.info({ err: error }, 'malformed multipart body');
    return refuse(400, JOB_MESSAGES.documentMissing);
  }
  if (!document) return refuse(400, JOB_MESSAGES.documentMissing);
  return { ok: true, upload: { document, fields } };
}

/**
 * The document's chapters, read by a reading process; one that cannot be read is refused with
 * 422 naming why, and a server with every reader busy and enough documents waiting says so
 * (503, the route adds Retry-After).
 */
export async function readChapters(
  readers: ReaderPool,
  document: Upload['document'],
): Promise<{ ok: true; parsed: ParsedDocument } | Refusal> {
  try {
    return { ok: true, parsed: (await readers.read(document.bytes, document.name)).parsed };
  } catch (error) {
    if (error instanceof DocumentError) return refuse(422, error.message);
    if (error instanceof ReadersBusyError) return refuse(503, JOB_MESSAGES.readersBusy);
    throw error;
  }
}

/** What a document holds, before a job is made of it. */
export function previewOf(parsed: ParsedDocument): DocumentPreview {
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
}

/** A chapter's first words, for the preview. */
function excerpt(text: string): string {
  const words = text.slice(0, 200).split(/\s+/);
  return text.length > 200 ? `${words.slice(0, -1).join(' ')}…` : text;
}
