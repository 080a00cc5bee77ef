import * as z from 'zod/mini';
import {
  AUDIO_FORMATS,
  type AudioFormat,
  DEFAULT_AUDIO_FORMAT,
  DEFAULT_ENGINE,
  DEFAULT_SAMPLE_RATE,
  DEFAULT_SLIDER_VALUE,
  ENGINES,
  type Engine,
  SAMPLE_RATES,
  SLIDERS,
  type SliderKind,
  STANDARD_ONLY_EFFECTS,
  VOICE_EFFECTS,
  type VoiceEffect,
} from './constants.js';
import { FieldErrorSchema } from './errors.js';
import { languageCode, noNul, oneOf } from './fields.js';
import { LexiconNamesSchema } from './lexicon-names.js';
import { sampleRateError } from './sample-rate.js';

export const EngineSchema = z.enum(ENGINES);
export const AudioFormatSchema = z.enum(AUDIO_FORMATS);
export const VoiceEffectSchema = z.enum(VOICE_EFFECTS);

/** Message of a rate outside SAMPLE_RATES, the same one `sampleRateError` gives. */
export const SampleRateSchema = z.literal(SAMPLE_RATES, {
  error: `Sample rate must be one of ${SAMPLE_RATES.join(', ')} Hz.`,
});

function sliderLabel(kind: SliderKind): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** 'Speed must be between -100 % and 100 %.' — the server's refusal; the UI cannot go there. */
export function sliderRangeMessage(kind: SliderKind): string {
  const { min, max, unit } = SLIDERS[kind];
  return `${sliderLabel(kind)} must be between ${min} ${unit} and ${max} ${unit}.`;
}

function slider(kind: SliderKind) {
  const { min, max } = SLIDERS[kind];
  const error = sliderRangeMessage(kind);
  return z.number({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }));
}

export const MasterSpeedSchema = slider('speed');
export const MasterVolumeSchema = slider('volume');
export const MasterPitchSchema = slider('pitch');

/** Why an effect cannot be used with an engine, or undefined (SPEC §5, §9). */
export function effectEngineError(engine: Engine, effect: VoiceEffect | null): string | undefined {
  if (effect === null || engine === 'standard') return undefined;
  return (STANDARD_ONLY_EFFECTS as readonly VoiceEffect[]).includes(effect)
    ? `The ${effect} effect needs the standard engine.`
    : undefined;
}

/**
 * Adds the engine/format/rate and engine/effect issues of a combination to `ctx` (SPEC §5).
 * Zod runs it only once every field is valid on its own, so one mistake gives one message.
 */
export function refineVoiceCombination(
  combination: { engine: Engine; format: AudioFormat; rate: number; effect: VoiceEffect | null },
  ctx: z.core.$RefinementCtx,
  keys: { rate: string; effect: string },
): void {
  const rateError = sampleRateError(combination.engine, combination.format, combination.rate);
  if (rateError) ctx.addIssue({ code: 'custom', path: [keys.rate], message: rateError });
  const effectError = effectEngineError(combination.engine, combination.effect);
  if (effectError) ctx.addIssue({ code: 'custom', path: [keys.effect], message: effectError });
}

// POST /convertor ----------------------------------------------------------------------------

export const VoiceSettingsSchema = z
  .object({
    engine: EngineSchema,
    voice_id: z.string().check(z.minLength(1, { error: 'Voice is required.' }), noNul),
    language_code: z.string().check(z.minLength(1, { error: 'Language is required.' }), noNul),
    /** The SSML to speak (plain text is escaped into <speak> by the editor). */
    text: z.string().check(z.trim(), z.minLength(1, { error: 'Text is required.' }), noNul),
    output_format: AudioFormatSchema,
    sample_rate: SampleRateSchema,
    effect: z.nullable(VoiceEffectSchema),
    master_speed: MasterSpeedSchema,
    master_volume: MasterVolumeSchema,
    master_pitch: MasterPitchSchema,
    /** The effects used in the text (the voice-effect tags inserted by the editor). */
    voice_effects: z.array(VoiceEffectSchema),
    /**
     * The pronunciation lexicons to apply, in order (first match wins); absent: the signed-in
     * user's default lexicons (issue 32).
     */
    lexicon_names: z.optional(LexiconNamesSchema),
  })
  .check(
    z.superRefine((settings, ctx) =>
      refineVoiceCombination(
        {
          engine: settings.engine,
          format: settings.output_format,
          rate: settings.sample_rate,
          effect: settings.effect,
        },
        ctx,
        { rate: 'sample_rate', effect: 'effect' },
      ),
    ),
  );
export type VoiceSettings = z.infer<typeof VoiceSettingsSchema>;

/** The editor's starting settings, before a language and voice are chosen (SPEC §9). */
export const VOICE_SETTINGS_DEFAULTS = {
  engine: DEFAULT_ENGINE,
  output_format: DEFAULT_AUDIO_FORMAT,
  sample_rate: DEFAULT_SAMPLE_RATE,
  effect: null,
  master_speed: DEFAULT_SLIDER_VALUE,
  master_volume: DEFAULT_SLIDER_VALUE,
  master_pitch: DEFAULT_SLIDER_VALUE,
  voice_effects: [],
} as const satisfies Omit<VoiceSettings, 'voice_id' | 'language_code' | 'text'>;

/** On failure `success` is false and `message` says why; path and duration are null. */
/**
 * What of a text was understood but not rendered as written (a <phoneme> the voice cannot
 * say, another product's tag): docs/ssml.md "Warnings". `line` and `column` (1-based) point
 * into the text as typed; null for a setting of the request.
 */
export const SpeechWarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  line: z.nullable(z.number().check(z.int())),
  column: z.nullable(z.number().check(z.int())),
});
export type SpeechWarningAnswer = z.infer<typeof SpeechWarningSchema>;

export const ConvertResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** Where the audio can be fetched (GET, binary). */
  path: z.nullable(z.string()),
  /** Seconds. */
  duration: z.nullable(z.number().check(z.nonnegative())),
  /** A failure's field messages (schema failures), as in ErrorResponseSchema. */
  errors: z.optional(z.array(FieldErrorSchema)),
  /** What of the text was not rendered as written; absent when everything was. */
  warnings: z.optional(z.array(SpeechWarningSchema)),
  /** Where the speech marks (SpeechMarksSchema, JSON) can be fetched; absent on failure. */
  marks_path: z.optional(z.nullable(z.string())),
  /** Where the subtitles can be fetched: WebVTT, or SRT with `?format=srt`. */
  subtitles_path: z.optional(z.nullable(z.string())),
  /**
   * True when the conversion was asked as a stream (`?stream=true`): the audio at `path` plays
   * while it is being rendered, `duration` is null, the marks are those of the words heard so
   * far until it has ended (api.ts's MARKS_COMPLETE_HEADER), and the subtitles are there once it has.
   */
  streaming: z.optional(z.boolean()),
});
export type ConvertResult = z.infer<typeof ConvertResultSchema>;

/** POST /api/convertor's query: `stream=true` answers at once with audio that plays as it renders. */
export const ConvertQuerySchema = z.object({
  stream: z.pipe(
    z.optional(z.enum(['true', 'false'], { error: 'stream must be true or false.' })),
    z.transform((value) => value === 'true'),
  ),
});

/**
 * One speech mark, in Amazon Polly's shape (docs/decisions/019-speech-marks.md): when a word,
 * a sentence or an SSML `<mark>` is heard, and where it is in the text as the user typed it.
 */
export const SpeechMarkSchema = z.object({
  /** Milliseconds from the start of the audio. */
  time: z.number().check(z.int(), z.nonnegative()),
  type: z.enum(['word', 'sentence', 'ssml']),
  /** Offsets (UTF-16 code units, end exclusive) into the text or SSML source as typed. */
  start: z.number().check(z.int(), z.nonnegative()),
  end: z.number().check(z.int(), z.nonnegative()),
  /** The word or sentence as written; a `<mark>`'s name. */
  value: z.string(),
});
export type SpeechMark = z.infer<typeof SpeechMarkSchema>;

/**
 * GET /convertor/marks/{file}: every mark of a conversion, in time order; while a streamed
 * conversion renders, the marks of the words heard so far (api.ts's MARKS_COMPLETE_HEADER says which).
 */
export const SpeechMarksSchema = z.array(SpeechMarkSchema);

/** `?format=` of the subtitles routes: WebVTT unless SRT is asked for. */
export const SubtitlesQuerySchema = z.object({
  format: z._default(z.enum(['vtt', 'srt'], { error: 'format must be vtt or srt.' }), 'vtt'),
});

// GET /convertor/voices ----------------------------------------------------------------------

export const VoiceCapabilitiesSchema = z.object({ pitch: z.boolean(), emphasis: z.boolean() });
export type VoiceCapabilities = z.infer<typeof VoiceCapabilitiesSchema>;

export const VoiceSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  gender: z.string(),
  /** The effects this voice supports (the voice-effect menu lists these). */
  effects: z.array(VoiceEffectSchema),
  engine: EngineSchema,
  capabilities: VoiceCapabilitiesSchema,
  /** Who renders the voice: `espeak-ng`, `piper`, `polly`, `azure`, `openai`. */
  provider: z.optional(z.string()),
  /** False while the voice's provider is failing (its voices stay listed, marked). */
  available: z.optional(z.boolean()),
});
export type Voice = z.infer<typeof VoiceSchema>;

export const LanguageSchema = z.object({
  language_name: z.string(),
  language_code: z.string().check(z.minLength(1)),
  voices: z.array(VoiceSchema),
});
export type Language = z.infer<typeof LanguageSchema>;

export const VoicesResponseSchema = z.array(LanguageSchema);
export type VoicesResponse = z.infer<typeof VoicesResponseSchema>;

/**
 * SPEC §5's rule for voices named by id ("pitch tools need a voice id containing ai2 or ai3;
 * emphasis needs ai3"), for a catalogue that follows that naming. Our own catalogue states
 * capabilities explicitly in `Voice.capabilities`.
 */
export function capabilitiesFromVoiceId(voiceId: string): VoiceCapabilities {
  return {
    pitch: voiceId.includes('ai2') || voiceId.includes('ai3'),
    emphasis: voiceId.includes('ai3'),
  };
}

/** Effects the menu offers for a voice under an engine (standard-only ones need standard). */
export function availableEffects(engine: Engine, voice: Pick<Voice, 'effects'>): VoiceEffect[] {
  return voice.effects.filter((effect) => effectEngineError(engine, effect) === undefined);
}

// Editor history (SPEC §3, §4) ---------------------------------------------------------------

export const EDITOR_TARGETS = ['TEXT', 'SSML'] as const;
export type EditorTarget = (typeof EDITOR_TARGETS)[number];

/** One entry of the editor's undo or redo stack. */
export const EditorHistoryEntrySchema = z.object({
  /** What was done: 'edit', 'paste', 'insert-pause', … (consecutive edits merge). */
  operation: z.string().check(z.minLength(1)),
  target: z.enum(EDITOR_TARGETS),
  old_version: z.string(),
  new_version: z.string(),
});
export type EditorHistoryEntry = z.infer<typeof EditorHistoryEntrySchema>;

/** GET /convertor/voices filters; a bad value is a 400 naming the parameter. */
export const VoicesQuerySchema = z.object({
  language: z.optional(languageCode('language', 'en-US or zh')),
  engine: z.optional(oneOf('engine', ENGINES)),
});

/** GET /convertor/voices/preview?voice=: a voice's short sample. */
export const VoicePreviewQuerySchema = z.object({
  voice: z
    .string({ error: 'voice is required: the id of a voice of GET /convertor/voices.' })
    .check(
      z.minLength(1, { error: 'voice is required: the id of a voice of GET /convertor/voices.' }),
      z.maxLength(200, { error: 'voice must be at most 200 characters.' }),
    ),
});

/** What a voice's preview says, by the primary language of the voice; English otherwise. */
export const PREVIEW_SENTENCES: Readonly<Record<string, string>> = {
  en: 'Hello! This is how I sound. Type any text and I will read it aloud.',
  fr: 'Bonjour ! Voici ma voix. Écrivez un texte et je le lirai à voix haute.',
  de: 'Hallo! So klingt meine Stimme. Schreiben Sie etwas, und ich lese es vor.',
  es: '¡Hola! Así suena mi voz. Escribe cualquier texto y lo leeré en voz alta.',
  ar: 'مرحبا! هكذا يبدو صوتي. اكتب أي نص وسأقرؤه بصوت عال.',
  it: 'Ciao! Questa è la mia voce. Scrivi qualcosa e lo leggerò ad alta voce.',
  pt: 'Olá! Esta é a minha voz. Escreva qualquer texto e eu o lerei em voz alta.',
  nl: 'Hallo! Zo klinkt mijn stem. Typ iets en ik lees het voor.',
  pl: 'Cześć! Tak brzmi mój głos. Wpisz dowolny tekst, a przeczytam go na głos.',
  ru: 'Привет! Так звучит мой голос. Напишите любой текст, и я прочитаю его вслух.',
  tr: 'Merhaba! Sesim böyle. Bir metin yazın, sesli okuyayım.',
  zh: '你好！这是我的声音。输入任何文字，我都会为你朗读。',
  cmn: '你好！这是我的声音。输入任何文字，我都会为你朗读。',
  ja: 'こんにちは。これが私の声です。文章を入力すると読み上げます。',
  ko: '안녕하세요! 제 목소리는 이렇습니다. 글을 입력하면 읽어 드릴게요.',
  hi: 'नमस्ते! मेरी आवाज़ ऐसी है। कोई भी पाठ लिखिए, मैं उसे पढ़कर सुनाऊँगा।',
};

/** GET /convertor/voices/summary: the counts the site shows, from the catalogue. */
export const VoicesSummarySchema = z.object({
  voices: z.number().check(z.int(), z.nonnegative()),
  languages: z.number().check(z.int(), z.nonnegative()),
});
