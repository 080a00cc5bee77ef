import type { Job, VoiceSettings } from '@parla/contract';
import type { JobsTable } from '../../db/schema.js';
import type { SpeechService } from '../../lib/speech.js';
import {
  type JobChapterRecord,
  type JobRepository,
  jobSettings,
  type PartState,
} from './repository.js';

/**
 * Jobs as the API describes them, from their rows, their parts and the catalogue's names;
 * `renderings`: how many parts of a job are rendered at once (JOB_CONCURRENCY).
 */
export async function describeJobs(
  rows: JobsTable[],
  jobs: JobRepository,
  speech: SpeechService,
  renderings: number,
): Promise<Job[]> {
  const [names, parts] = await Promise.all([
    namer(speech),
    jobs.partsOf(rows.map((job) => job.id)),
  ]);
  return rows.map((job) => describe(job, parts.get(job.id) ?? [], names, renderings));
}

type Namer = Awaited<ReturnType<typeof namer>>;

/** The catalogue's names of a job's language and voice (its codes where unknown). */
async function namer(speech: SpeechService) {
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

function describe(job: JobsTable, parts: PartState[], names: Namer, renderings: number): Job {
  const { voice, chapterPause } = jobSettings(job);
  const settings = voice as VoiceSettings;
  // The silence between chapters, as assembly.ts puts it: whole samples at the job's rate.
  const pause = Math.round(chapterPause * settings.sample_rate) / settings.sample_rate;
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
        ? before.reduce((s, p) => s + (p.duration ?? 0), 0) + index * pause
        : null;
    return { title: record.title, characters: record.characters, start, done: finished };
  });
  const running = job.status === 'running' || job.status === 'queued';
  const secondsLeft = running ? timeLeft(parts, renderings) : null;
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

/**
 * Seconds until a running job is done, from the speed measured on its parts
 * (docs/decisions/032-job-progress.md). A part's rendering costs a share that does not depend
 * on its length, and the first parts of a job also pay for starting the workers: so a part of
 * n characters is timed at the speed of the parts done of at least three quarters of n (else
 * the longest done) among those that began once a first part was done (else all). What is left
 * (the parts waiting, and what the parts in hand have not yet rendered at that speed) is
 * rendered `renderings` at a time, sharing the server as they did while measured: a part left
 * alone at the end goes faster, so the work left is divided by the renderings, not laid out
 * part by part. Null until a part is done.
 */
export function timeLeft(parts: PartState[], renderings: number, now = Date.now()): number | null {
  const done = parts
    .filter((p) => p.status === 'done' && p.started_at && p.rendered_at)
    .map((p) => ({
      characters: p.characters,
      began: Date.parse(p.started_at ?? ''),
      ms: Date.parse(p.rendered_at ?? '') - Date.parse(p.started_at ?? ''),
    }))
    .filter((p) => p.ms > 0);
  if (done.length === 0) return null;
  const firstDone = Math.min(...done.map((p) => p.began + p.ms));
  const warm = done.filter((p) => p.began >= firstDone);
  const measured = warm.length > 0 ? warm : done;
  const longest = Math.max(...measured.map((p) => p.characters));
  /** Milliseconds of one rendering that a part of `characters` takes. */
  const msFor = (characters: number) => {
    const alike = measured.filter((p) => p.characters >= Math.min(characters * 0.75, longest));
    const perMs =
      alike.reduce((sum, p) => sum + p.characters, 0) / alike.reduce((sum, p) => sum + p.ms, 0);
    return characters / perMs;
  };
  let left = 0;
  for (const part of parts) {
    if (part.status === 'pending') left += msFor(part.characters);
    if (part.status === 'charged') {
      const took = part.started_at ? now - Date.parse(part.started_at) : 0;
      left += Math.max(0, msFor(part.characters) - took);
    }
  }
  return Math.round(left / Math.max(1, renderings) / 1000);
}
