import * as z from 'zod/mini';
import {
  AUDIO_FORMATS,
  ENGINES,
  type PlanType,
  SAMPLE_RATES,
  SLIDERS,
  VOICE_EFFECTS,
} from './constants.js';
import { MessageResponseSchema } from './errors.js';
import { languageCode, noNul, oneOf, voiceId } from './fields.js';
import { LexiconNamesFieldSchema } from './lexicon-names.js';

// Long documents as jobs (issue 19, docs/api.md) -----------------------------------------------

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const DOCUMENT_KINDS = ['epub', 'pdf', 'docx', 'markdown', 'html', 'txt', 'text'] as const;

/** The most characters one job may have, per plan; FREE has no jobs. */
export const JOB_CHARACTER_LIMITS: Record<PlanType, number> = {
  FREE: 0,
  BASIC: 100_000,
  PREMIUM: 250_000,
  BUSINESS: 1_000_000,
};

/**
 * The most jobs a user may have queued or running at once, per plan (docs/decisions/036):
 * enough to queue a shelf of books, too few to fill the runners' queue ahead of everyone else.
 */
export const JOB_ACTIVE_LIMITS: Record<PlanType, number> = {
  FREE: 0,
  BASIC: 3,
  PREMIUM: 5,
  BUSINESS: 10,
};

/** Seconds of silence between chapters: the default, and the most a job may ask for. */
export const CHAPTER_PAUSE = { default: 1.5, max: 5 } as const;

/** Whether a job reads its chapter titles aloud (JobSettings.speak_chapter_titles, default yes). */
export const speaksChapterTitles = (value: boolean | 'true' | 'false' | undefined): boolean =>
  value === undefined || value === true || value === 'true';

/** What an anonymous request to start a job or preview a document is answered (401). */
export const JOB_SIGN_IN_MESSAGE = 'Sign in to convert documents: jobs are part of the paid plans.';

const slider = (name: string, kind: keyof typeof SLIDERS) =>
  z.optional(
    z.coerce
      .number({
        error: `${name} must be a number from ${SLIDERS[kind].min} to ${SLIDERS[kind].max}.`,
      })
      .check(
        z.int({ error: `${name} must be a whole number.` }),
        z.minimum(SLIDERS[kind].min, { error: `${name} must be at least ${SLIDERS[kind].min}.` }),
        z.maximum(SLIDERS[kind].max, { error: `${name} must be at most ${SLIDERS[kind].max}.` }),
      ),
  );

/**
 * A job's voice settings: SPEC §3's fields, by the same names, each optional (SPEC §9's
 * defaults); numbers may come as text (multipart form fields).
 */
export const JobSettingsSchema = z.object({
  engine: z.optional(oneOf('engine', ENGINES)),
  voice_id: z.optional(voiceId('voice_id')),
  language_code: z.optional(languageCode('language_code')),
  // One file with its chapters marked: ID3 CHAP frames (mp3), chapter comments (ogg), none (wav).
  output_format: z.optional(oneOf('output_format', AUDIO_FORMATS)),
  sample_rate: z.optional(
    z.coerce.number({ error: `sample_rate must be one of ${SAMPLE_RATES.join(', ')}.` }).check(
      z.refine((rate) => (SAMPLE_RATES as readonly number[]).includes(rate), {
        error: `sample_rate must be one of ${SAMPLE_RATES.join(', ')}.`,
      }),
    ),
  ),
  effect: z.optional(z.nullable(oneOf('effect', VOICE_EFFECTS))),
  master_speed: slider('master_speed', 'speed'),
  master_volume: slider('master_volume', 'volume'),
  master_pitch: slider('master_pitch', 'pitch'),
  /**
   * Each chapter begins with its title read aloud, as audiobooks do (default true); `"true"`
   * and `"false"` as text too (multipart form fields).
   */
  speak_chapter_titles: z.optional(
    z.union([z.boolean(), z.enum(['true', 'false'])], {
      error: 'speak_chapter_titles must be true or false.',
    }),
  ),
  /**
   * Pronunciation lexicons to apply, in order (a list, or comma-separated names in a multipart
   * form); absent: the user's default lexicons.
   */
  lexicon_names: z.optional(LexiconNamesFieldSchema),
  /** Seconds of silence between chapters (default 1.5). */
  chapter_pause: z.optional(
    z.coerce
      .number({
        error: `chapter_pause must be a number of seconds from 0 to ${CHAPTER_PAUSE.max}.`,
      })
      .check(
        z.minimum(0, { error: 'chapter_pause must be at least 0 seconds.' }),
        z.maximum(CHAPTER_PAUSE.max, {
          error: `chapter_pause must be at most ${CHAPTER_PAUSE.max} seconds.`,
        }),
      ),
  ),
});
export type JobSettings = z.infer<typeof JobSettingsSchema>;

/** A chapter as the user edits it before starting: the detected one, kept and perhaps renamed. */
export const ChapterChoiceSchema = z.object({
  index: z
    .number({ error: 'chapters[].index must be a chapter number of the document.' })
    .check(z.int(), z.minimum(0)),
  title: z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, { error: 'chapters[].title must not be empty.' }),
        z.maxLength(200),
        noNul,
      ),
  ),
});

/** A job's title, as given (a document's own title otherwise). */
const JobTitleSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1),
    z.maxLength(200, { error: 'title must be at most 200 characters.' }),
    noNul,
  );

/** POST /api/jobs as multipart: the voice settings and a title beside the document. */
export const JobUploadFieldsSchema = z.extend(JobSettingsSchema, {
  title: z.optional(JobTitleSchema),
});

/** POST /api/jobs as JSON: a text (or chapters of text) and the voice settings. */
export const JobTextInputSchema = z
  .extend(JobSettingsSchema, {
    title: z.optional(JobTitleSchema),
    text: z.optional(
      z
        .string({ error: 'text must be the text to speak.' })
        .check(z.trim(), z.minLength(1, { error: 'text must not be empty.' }), noNul),
    ),
    chapters: z.optional(
      z
        .array(
          z.object({
            title: z
              .string()
              .check(
                z.trim(),
                z.minLength(1, { error: 'chapters[].title must not be empty.' }),
                z.maxLength(200),
                noNul,
              ),
            text: z
              .string()
              .check(
                z.trim(),
                z.minLength(1, { error: 'chapters[].text must not be empty.' }),
                noNul,
              ),
          }),
        )
        .check(z.minLength(1, { error: 'chapters must list at least one chapter.' })),
    ),
  })
  .check(
    z.refine((input) => (input.text === undefined) !== (input.chapters === undefined), {
      error: 'Give either text or chapters (or send a document as multipart field "document").',
    }),
  );
export type JobTextInput = z.infer<typeof JobTextInputSchema>;

export const JobCreatedSchema = z.object({ id: z.string(), status: z.enum(JOB_STATUSES) });

export const JobChapterSchema = z.object({
  title: z.string(),
  characters: z.number().check(z.int()),
  /** Seconds from the start of the job's audio, once the chapter is rendered. */
  start: z.nullable(z.number()),
  done: z.boolean(),
});

export const JobSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** What it was made from: a document format, or `text`. */
  source: z.enum(DOCUMENT_KINDS),
  status: z.enum(JOB_STATUSES),
  output_format: z.enum(AUDIO_FORMATS),
  /** The voice it is read with: codes, and their names in the voice catalogue. */
  engine: z.enum(ENGINES),
  language_code: z.string(),
  voice_id: z.string(),
  language: z.string(),
  voice: z.string(),
  characters: z.number().check(z.int()),
  progress: z.object({
    /** 0 to 1: the characters rendered. */
    fraction: z.number().check(z.minimum(0), z.maximum(1)),
    characters_done: z.number().check(z.int()),
    chapters_done: z.number().check(z.int()),
    chapters: z.number().check(z.int()),
    /** Estimated from the speed so far; null before the first part or when finished. */
    seconds_left: z.nullable(z.number()),
  }),
  chapters: z.array(JobChapterSchema),
  /** When done: the audio, its length in seconds, its speech marks and subtitles. */
  path: z.nullable(z.string()),
  duration: z.nullable(z.number()),
  /** Bytes of the audio file, when done. */
  size: z.nullable(z.number().check(z.int())),
  marks_path: z.nullable(z.string()),
  subtitles_path: z.nullable(z.string()),
  /** When done: each chapter as its own file, in a zip; and the text that was read. */
  chapters_path: z.nullable(z.string()),
  text_path: z.nullable(z.string()),
  /** Why it failed, when it did. */
  error: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /** When it ended (done, failed or cancelled); it is deleted 30 days later. */
  finished_at: z.nullable(z.string()),
});
export type Job = z.infer<typeof JobSchema>;

export const JobListSchema = z.array(JobSchema);

/** DELETE /api/jobs/{id}: the cancelled job, or a message when an ended one was deleted. */
export const JobDeletedSchema = z.union([JobSchema, MessageResponseSchema]);

/** POST /api/jobs/preview: what a document holds, before a job is started from it. */
export const DocumentPreviewSchema = z.object({
  title: z.string(),
  source: z.enum(DOCUMENT_KINDS),
  characters: z.number().check(z.int()),
  chapters: z.array(
    z.object({
      index: z.number().check(z.int()),
      title: z.string(),
      characters: z.number().check(z.int()),
      /** The chapter's first words. */
      excerpt: z.string(),
    }),
  ),
});
export type DocumentPreview = z.infer<typeof DocumentPreviewSchema>;

export const JobIdParamsSchema = z.object({
  id: z.string().check(z.regex(/^[\w-]{1,64}$/, { error: 'id must be a job id.' })),
});
