import type { Job, VoiceSettings } from '@parla/contract';
import type { JobsTable } from '../../db/schema.js';
import type { SpeechService } from '../../lib/speech.js';
import type { JobChapterRecord, JobRepository, PartState } from './repository.js';

/** Jobs as the API describes them, from their rows, their parts and the catalogue's names. */
export async function describeJobs(
  rows: JobsTable[],
  jobs: JobRepository,
  speech: SpeechService,
): Promise<Job[]> {
  const [names, parts] = await Promise.all([
    namer(speech),
    jobs.partsOf(rows.map((job) => job.id)),
  ]);
  return rows.map((job) => describe(job, parts.get(job.id) ?? [], names));
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

function describe(job: JobsTable, parts: PartState[], names: Namer): Job {
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
