import { randomUUID } from 'node:crypto';
import {
  ADMIN_PLAN_MESSAGES,
  CHAPTER_PAUSE,
  ChapterChoiceSchema,
  countCharacters,
  ENGINES,
  type Engine,
  JOB_CHARACTER_LIMITS,
  type Job,
  type JobSettings,
  JobTextInputSchema,
  JobUploadFieldsSchema,
  type PlanType,
  speaksChapterTitles,
  type VoiceSettings,
  VoiceSettingsSchema,
} from '@parla/contract';
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import type { JobPartsTable, JobsTable, User } from '../../db/schema.js';
import type { SpeechService } from '../../lib/speech.js';
import { apiVoiceSettings } from '../../services/conversion/settings.js';
import type { Chapter } from './documents.js';
import { JOB_MESSAGES, type Refusal, refuse } from './messages.js';
import { PART_CHARACTERS, rampedLimit, splitParts } from './parts.js';
import type { ReaderPool } from './reader-pool.js';
import type { JobChapterRecord, StoredJobSettings } from './repository.js';
import { readChapters, readUpload } from './upload.js';

/** What a job is asked to read, and how, before its settings are checked. */
export interface JobDraft {
  chapters: Chapter[];
  title: string;
  source: Job['source'];
  input: JobSettings;
  /** The chapters have titles of their own (a document's, or JSON `chapters`), to be read. */
  titled: boolean;
}

type Drafted = { ok: true; draft: JobDraft } | Refusal;

const ChapterChoicesSchema = z.array(ChapterChoiceSchema).min(1);

/** A job from a multipart body: its document, and the voice settings and choices as fields. */
export async function draftFromUpload(
  request: FastifyRequest,
  readers: ReaderPool,
): Promise<Drafted> {
  const read = await readUpload(request);
  if (!read.ok) return read;
  const { chapters: choice, ...fields } = read.upload.fields;
  const settings = JobUploadFieldsSchema.safeParse({
    ...fields,
    ...(fields.effect === '' && { effect: null }),
    // An empty title: the document's own.
    ...(!fields.title?.trim() && { title: undefined }),
  });
  if (!settings.success) return refuse(400, firstIssue(settings.error));
  const { title: named, ...input } = settings.data;
  const result = await readChapters(readers, read.upload.document);
  if (!result.ok) return result;
  let chapters = result.parsed.chapters;
  if (choice !== undefined) {
    const chosen = chooseChapters(chapters, choice);
    if (!chosen.ok) return chosen;
    chapters = chosen.chapters;
  }
  return {
    ok: true,
    draft: {
      chapters,
      title: named || result.parsed.title,
      source: result.parsed.format,
      input,
      titled: true,
    },
  };
}

/** A job from a JSON body: a text or its chapters, with the voice settings. */
export function draftFromJson(body: unknown): Drafted {
  const parsed = JobTextInputSchema.safeParse(body ?? {});
  if (!parsed.success) return refuse(400, firstIssue(parsed.error));
  const { text, chapters: given, title: named, ...input } = parsed.data;
  const chapters = given ?? [{ title: named ?? 'Text', text: text ?? '' }];
  return {
    ok: true,
    draft: {
      chapters,
      title: named ?? chapters[0]?.title ?? 'Text',
      source: 'text',
      input,
      // One text has no chapter title to read: its title names the job.
      titled: given !== undefined,
    },
  };
}

/**
 * The rows of a queued job and its parts, once its settings are checked as a conversion's are
 * and the user's plan allows its characters.
 */
export async function newJob(
  speech: SpeechService,
  user: User,
  draft: JobDraft,
  /** The engines of the user's plan, as bought (decision 055). */
  engines: readonly Engine[],
): Promise<{ ok: true; job: JobsTable; parts: JobPartsTable[] } | Refusal> {
  const { chapters, title, source } = draft;
  const { speak_chapter_titles, chapter_pause, ...input } = draft.input;
  // Each chapter opens with its title read aloud, as audiobooks do: it is text of the part,
  // spoken, marked and charged as the rest (docs/decisions/032-job-progress.md).
  const spoken = draft.titled && speaksChapterTitles(speak_chapter_titles);
  // What is charged: the parts' characters (the blank lines between parts are not). The
  // job's first parts are smaller, so that its progress moves from its first seconds.
  const parts = chapters.map((chapter, index) =>
    splitParts(
      spoken ? `${spokenTitle(chapter.title)}\n\n${chapter.text}` : chapter.text,
      index === 0 ? rampedLimit : PART_CHARACTERS,
    ),
  );
  const characters = parts.flat().reduce((sum, text) => sum + countCharacters(text), 0);
  const check = await checkSettings(speech, input, chapters[0]?.text ?? '');
  if (!check.ok) return refuse(400, check.message);
  const { engine } = check.settings;
  if (!engines.includes(engine)) {
    return refuse(400, ADMIN_PLAN_MESSAGES.engineNotInPlan(engine, user.plan_type));
  }
  const refused = allowance(user, characters);
  if (refused) return refused;
  const id = randomUUID();
  const now = new Date().toISOString();
  const { text: _text, ...settings } = check.settings;
  const job: JobsTable = {
    id,
    user_id: user.id,
    title: title.slice(0, 200),
    source,
    status: 'queued',
    settings: JSON.stringify({
      ...settings,
      chapter_pause: chapter_pause ?? CHAPTER_PAUSE.default,
    } satisfies StoredJobSettings),
    output_format: settings.output_format,
    characters,
    chapters: JSON.stringify(
      chapters.map(
        (c, index): JobChapterRecord => ({
          title: c.title,
          characters: (parts[index] ?? []).reduce((sum, t) => sum + countCharacters(t), 0),
        }),
      ),
    ),
    audio_key: null,
    audio_size: null,
    duration: null,
    error: null,
    lease_owner: null,
    lease_until: null,
    started_at: null,
    finished_at: null,
    created_at: now,
    updated_at: now,
  };
  return {
    ok: true,
    job,
    parts: parts.flatMap((texts, index) =>
      texts.map((text, part) => ({
        job_id: id,
        chapter: index,
        part,
        text,
        characters: countCharacters(text),
        status: 'pending',
        duration: null,
        started_at: null,
        rendered_at: null,
      })),
    ),
  };
}

/** A title read as a sentence of its own: with a full stop unless it ends with punctuation. */
function spokenTitle(title: string): string {
  const trimmed = title.trim();
  return /[.!?…:;]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The full voice settings of a job, checked as a conversion's are (SPEC §3, §5). */
async function checkSettings(
  speech: SpeechService,
  input: JobSettings,
  sample: string,
): Promise<{ ok: true; settings: VoiceSettings } | { ok: false; message: string }> {
  const languages = await speech.listVoices();
  const settings = apiVoiceSettings(languages, {
    text: sample,
    ...(input.voice_id && { voice: input.voice_id }),
    ...(input.language_code && { language: input.language_code }),
    // A voice id says its engine (standard:…, neural:…) when the engine is not given.
    ...((input.engine ?? engineOf(input.voice_id)) && {
      engine: input.engine ?? engineOf(input.voice_id),
    }),
    ...(input.output_format && { format: input.output_format }),
    ...(input.sample_rate !== undefined && { sample_rate: input.sample_rate as 8000 }),
    ...(input.effect !== undefined && { effect: input.effect }),
    ...(input.master_speed !== undefined && { speed: input.master_speed }),
    ...(input.master_volume !== undefined && { volume: input.master_volume }),
    ...(input.master_pitch !== undefined && { pitch: input.master_pitch }),
    ...(input.lexicon_names !== undefined && { lexicon_names: input.lexicon_names }),
  });
  if (!settings.voice_id) {
    return {
      ok: false,
      message: `No ${settings.engine} voice speaks ${settings.language_code}; choose another engine or language (GET /api/convertor/voices).`,
    };
  }
  const valid = VoiceSettingsSchema.safeParse(settings);
  if (!valid.success) return { ok: false, message: firstIssue(valid.error) };
  const known = languages.some((l) =>
    l.voices.some((v) => v.id === valid.data.voice_id && v.engine === valid.data.engine),
  );
  if (!known) {
    return {
      ok: false,
      message: `voice_id: no ${valid.data.engine} voice "${valid.data.voice_id}"; see GET /api/convertor/voices.`,
    };
  }
  return { ok: true, settings: valid.data };
}

function engineOf(voiceId: string | undefined): Engine | undefined {
  const prefix = voiceId?.split(':')[0];
  return (ENGINES as readonly string[]).includes(prefix ?? '') ? (prefix as Engine) : undefined;
}

/** Why the user's plan does not allow a job of so many characters; undefined when it does. */
function allowance(user: User, characters: number): Refusal | undefined {
  const plan = user.plan_type as PlanType;
  const limit = user.role === 'ADMIN' ? Number.POSITIVE_INFINITY : JOB_CHARACTER_LIMITS[plan];
  if (characters > limit) return refuse(413, JOB_MESSAGES.overPlan(characters, limit, plan));
  if (characters > user.count_characters) {
    return refuse(402, JOB_MESSAGES.notEnough(characters, user.count_characters));
  }
  return undefined;
}

/** The user's choice of chapters (JSON [{index, title?}]): kept in that order, renamed. */
function chooseChapters(
  chapters: Chapter[],
  choice: string,
): { ok: true; chapters: Chapter[] } | Refusal {
  const refused = refuse(400, JOB_MESSAGES.badChapters(chapters.length));
  let list: z.infer<typeof ChapterChoicesSchema>;
  try {
    const parsed = ChapterChoicesSchema.safeParse(JSON.parse(choice));
    if (!parsed.success) return refused;
    list = parsed.data;
  } catch {
    return refused;
  }
  const indexes = list.map((entry) => entry.index);
  if (new Set(indexes).size !== indexes.length || indexes.some((i) => i >= chapters.length)) {
    return refused;
  }
  return {
    ok: true,
    chapters: list.map(({ index, title }) => {
      const chapter = chapters[index] as Chapter;
      return { title: title ?? chapter.title, text: chapter.text };
    }),
  };
}

/** A schema's first complaint, naming its field unless the message already does. */
function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path.join('.') ?? '';
  return issue?.message && field && !issue.message.startsWith(field)
    ? `${field}: ${issue.message}`
    : (issue?.message ?? 'Invalid job.');
}
