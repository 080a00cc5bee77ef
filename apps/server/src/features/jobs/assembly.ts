import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { SpeechMark } from '@parla/contract';
import {
  chapterComments,
  createStreamEncoder,
  pcm16ToSamples,
  type StreamEncoder,
  wavHeader,
  withVorbisComments,
} from '@parla/speech';
import NodeID3 from 'node-id3';
import type { JobsTable } from '../../db/schema.js';
import { marksKey, readMarks } from '../../lib/marks.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { type JobChapterRecord, type JobRepository, jobKeys, jobSettings } from './repository.js';

/**
 * The format a job's parts are rendered in: its own, but PCM (wav) for Ogg, which is encoded
 * once over the whole book (Ogg streams put end to end are a chained file most players stop
 * at the first link of).
 */
export const partFormat = (format: string) => (format === 'ogg' ? 'wav' : format);

/**
 * The parts' audio as one file with chapter markers, streamed from the parts into storage
 * (an audiobook may last hours: it is never held in memory), its marks and its text beside
 * it. Answers the chapters with where each lies in the file (or, in Ogg, their own files),
 * for the zip of chapters.
 */
export async function assemble(
  job: JobsTable,
  jobs: JobRepository,
  storage: ObjectStorage,
): Promise<{ key: string; size: number; duration: number; chapters: JobChapterRecord[] }> {
  const format = partFormat(job.output_format);
  const chapters = JSON.parse(job.chapters) as JobChapterRecord[];
  const parts = await jobs.parts(job.id);
  const { voice, chapterPause } = jobSettings(job);
  const sampleRate = voice.sample_rate;
  // The silence between chapters, stored once with the parts and put after each chapter but
  // the last (it belongs to the chapter it ends: the next one starts with its title).
  const pause =
    chapterPause > 0 && chapters.length > 1
      ? await storePause(storage, jobKeys.pause(job.id, format), format, sampleRate, chapterPause)
      : undefined;
  const pieces: Piece[] = [];
  const marks: SpeechMark[] = [];
  const starts: number[] = [];
  let seconds = 0;
  let offset = 0;
  let text = '';
  for (const part of parts) {
    if (starts[part.chapter] === undefined) {
      const previous = pieces.at(-1);
      if (pause && previous) {
        pieces.push({ ...pause, chapter: previous.chapter });
        seconds += pause.seconds;
      }
      starts[part.chapter] = seconds;
    }
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
    const encoded = await encodeOgg(storage, job, pieces, chapters, starts, sampleRate);
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
  storage: ObjectStorage,
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

/**
 * `seconds` of silence in the parts' format, stored under `key`: 16-bit mono samples behind a
 * WAV header, or mp3 frames of the same rate and bit rate as the parts' (each mp3 part is a
 * stream of its own, so frames of another encoder join them as theirs do).
 */
async function storePause(
  storage: ObjectStorage,
  key: string,
  format: string,
  sampleRate: number,
  seconds: number,
): Promise<Omit<Piece, 'chapter'> & { seconds: number }> {
  const samples = Math.round(seconds * sampleRate);
  let bytes: Uint8Array;
  let start = 0;
  if (format === 'wav') {
    const header = wavHeader(sampleRate, samples * 2);
    bytes = Buffer.concat([header, new Uint8Array(samples * 2)]);
    start = header.length;
  } else {
    const encoder = await createStreamEncoder('mp3', sampleRate);
    bytes = Buffer.concat([encoder.encode(new Float32Array(samples)), encoder.finish()]);
  }
  await storage.put(key, bytes, format === 'wav' ? 'audio/wav' : 'audio/mpeg');
  return { key, start, end: bytes.length, seconds: samples / sampleRate };
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
