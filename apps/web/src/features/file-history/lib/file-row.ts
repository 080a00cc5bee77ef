import { formatDuration, formatFileSize, type SavedFile } from '@parla/contract';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export interface FileRow {
  id: string;
  size: string;
  time: string;
  language: string;
  voice: string;
  saveDate: string;
}

/** A saved file as the table shows it (SPEC §2 File History, §3 File). */
export function toFileRow(file: SavedFile): FileRow {
  return {
    id: file._id,
    size: formatFileSize(file.size),
    time: formatDuration(file.length),
    language: file.language,
    voice: file.voice,
    saveDate: dateFormat.format(new Date(file.updated_date)),
  };
}
