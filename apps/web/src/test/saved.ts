import type { Job, SavedFile } from '@parla/contract';

/** GET /file's entry for tests: a short standard-voice mp3, changed by what is given. */
export function savedFileOf(changes: Partial<SavedFile> = {}): SavedFile {
  return {
    _id: 'file-1',
    size: 48_213,
    length: 65.4,
    language: 'English (US)',
    voice: 'Lena',
    updated_date: '2026-11-20T10:00:00.000Z',
    engine: 'standard',
    language_code: 'en-us',
    voice_id: 'standard:en-us',
    audio_format: 'mp3',
    audio_sample_rate: 24000,
    effect: null,
    output_format: 'mp3',
    sample_rate: 24000,
    master_speed: 0,
    master_volume: 0,
    master_pitch: 0,
    snippet: 'Hello there',
    ...changes,
  };
}

/**
 * GET /jobs' entry for tests: "Book <id>", 12 chapters of an EPUB read by a neural voice;
 * done (2 h 3 min of mp3) or part-way, as `status` says. Ended jobs end at `finished`.
 */
export function jobOf(
  id: string,
  status: Job['status'],
  finished: string | null = status === 'queued' || status === 'running'
    ? null
    : '2026-11-19T09:10:00.000Z',
): Job {
  const done = status === 'done';
  return {
    id,
    title: `Book ${id}`,
    source: 'epub',
    status,
    output_format: 'mp3',
    engine: 'neural',
    language_code: 'en-us',
    voice_id: 'neural:amy',
    language: 'English (US)',
    voice: 'Amy',
    characters: 120_000,
    progress: {
      fraction: done ? 1 : 0.4,
      characters_done: done ? 120_000 : 48_000,
      chapters_done: done ? 12 : 5,
      chapters: 12,
      seconds_left: done || finished ? null : 300,
    },
    chapters: [{ title: 'One', characters: 120_000, start: done ? 0 : null, done }],
    path: done ? `/api/jobs/${id}/audio` : null,
    duration: done ? 7_384 : null,
    size: done ? 59_000_000 : null,
    marks_path: null,
    subtitles_path: null,
    chapters_path: null,
    text_path: null,
    error: null,
    created_at: '2026-11-19T09:00:00.000Z',
    updated_at: finished ?? '2026-11-19T09:00:00.000Z',
    finished_at: finished,
  };
}
