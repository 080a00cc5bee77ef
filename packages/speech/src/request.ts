import {
  AudioFormatSchema,
  LexiconEntrySchema,
  MasterPitchSchema,
  MasterSpeedSchema,
  MasterVolumeSchema,
  SampleRateSchema,
  VoiceEffectSchema,
} from '@parla/contract';
import * as z from 'zod';
import { SpeechError } from './errors.js';

/**
 * The library's own request: what to say, in which voice, how. camelCase, independent of the
 * product's wire payload (packages/contract's `VoiceSettings`, snake_case), which the server
 * and the CLI map to it with `speechRequestFromSettings` (product.ts) once the product's
 * rules (SPEC §5 sample rates) are checked (`VoiceSettingsSchema`, `checkSettings`).
 *
 * - `voice`: a voice id, `<engine>:<voice>` (`standard:en-us+f2`, `neural:amy`); the engine
 *   is the id's prefix.
 * - `text`: SSML (docs/ssml.md) or plain text.
 * - `format`, `sampleRate`: the output file; every rate of SPEC §9 on every engine.
 * - `effect`: a voice effect for the whole text (one per voice's `effects`), or null.
 * - `speed` (-100..100 %), `volume` (-20..20 dB), `pitch` (-100..100 %): 0 is the voice's own.
 * - `lexicons`: pronunciation lexicons applied to the whole text, in order (first match wins);
 *   `lexiconLibrary`: those an SSML `<lexicon uri>` may name (lexicons/apply.ts).
 */
const SpeechLexiconSchema = z.object({
  name: z.string().min(1),
  language: z.string().min(1),
  entries: z.array(LexiconEntrySchema),
});

export const SpeechRequestSchema = z.object({
  voice: z.string().min(1, { error: 'Voice is required.' }),
  text: z.string().trim().min(1, { error: 'Text is required.' }),
  format: AudioFormatSchema,
  sampleRate: SampleRateSchema,
  effect: z._default(z.nullable(VoiceEffectSchema), null),
  speed: z._default(MasterSpeedSchema, 0),
  volume: z._default(MasterVolumeSchema, 0),
  pitch: z._default(MasterPitchSchema, 0),
  lexicons: z._default(z.array(SpeechLexiconSchema), []),
  lexiconLibrary: z._default(z.array(SpeechLexiconSchema), []),
});

/** A request as callers write it (effect and sliders may be left out). */
export type SpeechRequest = z.input<typeof SpeechRequestSchema>;
/** A checked request, every field present. */
export type CheckedRequest = z.output<typeof SpeechRequestSchema>;

/** Checks a request; a mistake is a `bad_input` error naming the field. */
export function checkRequest(request: SpeechRequest): CheckedRequest {
  const parsed = SpeechRequestSchema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'invalid request';
  throw new SpeechError('bad_input', field ? `${field}: ${message}` : message);
}
