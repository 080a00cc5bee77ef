import * as z from 'zod/mini';
import {
  type AudioFormat,
  MAX_SPEECH_SECONDS_PER_CHARACTER,
  MAX_TOTAL_BREAK_SECONDS,
  type VoiceEffect,
} from './constants.js';
import {
  AudioFormatSchema,
  EngineSchema,
  MasterPitchSchema,
  MasterSpeedSchema,
  MasterVolumeSchema,
  refineVoiceCombination,
  SampleRateSchema,
  VoiceEffectSchema,
  type VoiceSettings,
} from './convertor.js';
import { DateTimeSchema, KeySchema, noNul } from './fields.js';

/** Characters of the saved text a file listing shows (issue 18: File History's snippet). */
export const FILE_SNIPPET_LENGTH = 120;

/** Multipart field names of the upload calls (SPEC §7). */
export const FILE_UPLOAD_FIELDS = { media: 'media', ssml: 'ssml' } as const;

// GET /file, GET /file/{id} (SPEC §3 File) ---------------------------------------------------

export const FileSchema = z.object({
  _id: z.string().check(z.minLength(1)),
  /** Bytes; shown with `formatFileSize`. */
  size: z.number().check(z.int(), z.nonnegative()),
  /** Seconds; shown with `formatDuration`. */
  length: z.number().check(z.nonnegative()),
  /** Display name of the language. */
  language: z.string(),
  /** Display name of the voice. */
  voice: z.string(),
  updated_date: DateTimeSchema,
  engine: EngineSchema,
  language_code: z.string(),
  voice_id: z.string(),
  audio_format: AudioFormatSchema,
  audio_sample_rate: SampleRateSchema,
  effect: z.nullable(VoiceEffectSchema),
  output_format: AudioFormatSchema,
  sample_rate: SampleRateSchema,
  master_speed: MasterSpeedSchema,
  master_volume: MasterVolumeSchema,
  master_pitch: MasterPitchSchema,
  /**
   * The start of the saved text, without its markup (at most FILE_SNIPPET_LENGTH characters,
   * '' before the SSML is saved): what tells two files apart in File History.
   */
  snippet: z.string(),
});
/** Named SavedFile, not File, so that it never shadows the DOM's File in the web app. */
export type SavedFile = z.infer<typeof FileSchema>;

export const FileListSchema = z.array(FileSchema);
export type SavedFileList = z.infer<typeof FileListSchema>;

/** {id} of /file/{id}, /file/media/{id}, /file/ssml/{id}. */
export const FileIdParamsSchema = z.object({ id: KeySchema });
export type FileIdParams = z.infer<typeof FileIdParamsSchema>;

// Limits of saved audio and storage (issue 13 item 5) ----------------------------------------

/** The longest audio one conversion of `charactersPerConvert` characters can make, in seconds. */
export function maxConversionSeconds(charactersPerConvert: number): number {
  return charactersPerConvert * MAX_SPEECH_SECONDS_PER_CHARACTER + MAX_TOTAL_BREAK_SECONDS;
}

/**
 * Bytes per second the convertor's encoders produce at most: 16-bit mono PCM for WAV, 96 kbit/s
 * constant bit rate for MP3, Vorbis quality 4 (well under 160 kbit/s for mono speech) for Ogg.
 */
function maxBytesPerSecond(format: AudioFormat, sampleRate: number): number {
  if (format === 'wav') return sampleRate * 2;
  if (format === 'mp3') return 96_000 / 8;
  return 160_000 / 8;
}

/** Headers, tags and the last partial block. */
const AUDIO_OVERHEAD_BYTES = 64 * 1024;

/** The largest file the convertor can make of `seconds` of audio in this format and rate. */
export function maxAudioBytes(format: AudioFormat, sampleRate: number, seconds: number): number {
  return Math.ceil(seconds * maxBytesPerSecond(format, sampleRate)) + AUDIO_OVERHEAD_BYTES;
}

/** GET /file/usage: bytes the user's saved files use, and their plan's quota. */
export const StorageUsageSchema = z.object({
  used_bytes: z.number().check(z.int(), z.nonnegative()),
  quota_bytes: z.number().check(z.int(), z.nonnegative()),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;

// Media query of POST /file/media and PUT /file/media/{id} -----------------------------------

const queryNumber = <T extends z.ZodMiniType<number, number>>(schema: T) =>
  z.pipe(
    z.union([z.number(), z.pipe(z.string().check(z.trim(), z.minLength(1)), z.transform(Number))]),
    schema,
  );

/**
 * The query string describing an uploaded audio file. Values arrive as text, so numbers are
 * converted; `language` is the language code and `voice` the voice id; an empty `effect`
 * means none.
 */
export const FileMediaQuerySchema = z
  .object({
    engine: EngineSchema,
    language: z.string().check(z.minLength(1), noNul),
    voice: z.string().check(z.minLength(1), noNul),
    effect: z.pipe(
      z.optional(z.union([VoiceEffectSchema, z.literal(''), z.null()])),
      z.transform((value): VoiceEffect | null => (value ? value : null)),
    ),
    audio_format: AudioFormatSchema,
    audio_sample_rate: queryNumber(SampleRateSchema),
    master_speed: queryNumber(MasterSpeedSchema),
    master_volume: queryNumber(MasterVolumeSchema),
    master_pitch: queryNumber(MasterPitchSchema),
  })
  .check(
    z.superRefine((query, ctx) =>
      refineVoiceCombination(
        {
          engine: query.engine,
          format: query.audio_format,
          rate: query.audio_sample_rate,
          effect: query.effect,
        },
        ctx,
        { rate: 'audio_sample_rate', effect: 'effect' },
      ),
    ),
  );
export type FileMediaQuery = z.output<typeof FileMediaQuerySchema>;

/** The query a client sends for `settings` (all values as text). */
export function fileMediaQuery(
  settings: Pick<
    VoiceSettings,
    | 'engine'
    | 'language_code'
    | 'voice_id'
    | 'effect'
    | 'output_format'
    | 'sample_rate'
    | 'master_speed'
    | 'master_volume'
    | 'master_pitch'
  >,
): Record<string, string> {
  return {
    engine: settings.engine,
    language: settings.language_code,
    voice: settings.voice_id,
    effect: settings.effect ?? '',
    audio_format: settings.output_format,
    audio_sample_rate: String(settings.sample_rate),
    master_speed: String(settings.master_speed),
    master_volume: String(settings.master_volume),
    master_pitch: String(settings.master_pitch),
  };
}
