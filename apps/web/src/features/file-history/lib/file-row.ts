import { formatDuration, formatFileSize, type SavedFile } from '@parla/contract';

export interface FileRow {
  id: string;
  size: string;
  time: string;
  language: string;
  voice: string;
  saveDate: string;
  /** The start of the saved text. */
  snippet: string;
}

/** A saved file as the table shows it (SPEC §2 File History, §3 File), dates in `locale`. */
export function toFileRow(file: SavedFile, locale: string): FileRow {
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    id: file._id,
    size: formatFileSize(file.size),
    time: formatDuration(file.length),
    language: file.language,
    voice: file.voice,
    saveDate: dateFormat.format(new Date(file.updated_date)),
    snippet: file.snippet,
  };
}
