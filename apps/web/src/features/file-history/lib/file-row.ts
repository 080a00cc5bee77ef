import { formatDuration, formatFileSize, type Job, type SavedFile } from '@parla/contract';

export interface FileRow {
  /** A saved file (SPEC §3 File), or a finished job's audiobook (issue 19). */
  kind: 'file' | 'audiobook';
  id: string;
  size: string;
  time: string;
  language: string;
  voice: string;
  saveDate: string;
  /** When it was saved (ISO 8601): rows are listed newest first. */
  savedAt: string;
  /** The start of the saved text; an audiobook's title. */
  snippet: string;
  /** Where Open goes: the convertor with the file, or the audiobook on the Documents page. */
  open: string;
  /** The audio's format (its download's extension) and length in seconds. */
  format: string;
  seconds: number;
  /** An audiobook's audio address (a saved file's is GET /file/media/{id}). */
  audioPath?: string;
}

const dateFormat = (locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

/** A saved file as the table shows it (SPEC §2 File History, §3 File), dates in `locale`. */
export function toFileRow(file: SavedFile, locale: string): FileRow {
  return {
    kind: 'file',
    id: file._id,
    size: formatFileSize(file.size),
    time: formatDuration(file.length),
    language: file.language,
    voice: file.voice,
    saveDate: dateFormat(locale).format(new Date(file.updated_date)),
    savedAt: file.updated_date,
    snippet: file.snippet,
    open: `/convertor?id=${encodeURIComponent(file._id)}`,
    format: file.output_format,
    seconds: file.length,
  };
}

/** A finished job's audiobook as a row of the same table; undefined while it has no audio. */
export function toJobRow(job: Job, locale: string): FileRow | undefined {
  if (job.status !== 'done' || job.path === null) return undefined;
  const savedAt = job.finished_at ?? job.updated_at;
  return {
    kind: 'audiobook',
    id: job.id,
    size: job.size === null ? '' : formatFileSize(job.size),
    time: job.duration === null ? '' : formatDuration(job.duration),
    language: job.language,
    voice: job.voice,
    saveDate: dateFormat(locale).format(new Date(savedAt)),
    savedAt,
    snippet: job.title,
    open: `/documents?job=${encodeURIComponent(job.id)}`,
    format: job.output_format,
    seconds: job.duration ?? 0,
    audioPath: job.path,
  };
}

/** Saved files and audiobooks together, the most recently saved first. */
export function historyRows(files: SavedFile[], jobs: Job[], locale: string): FileRow[] {
  const rows = [
    ...files.map((file) => toFileRow(file, locale)),
    ...jobs.flatMap((job) => toJobRow(job, locale) ?? []),
  ];
  return rows.sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
}
