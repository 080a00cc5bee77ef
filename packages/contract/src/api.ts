import * as z from 'zod/mini';
import { AUDIO_FORMATS, ENGINES, SAMPLE_RATES, SLIDERS, VOICE_EFFECTS } from './constants.js';
import { ConvertResultSchema } from './convertor.js';
import { languageCode, noNul, oneOf, voiceId } from './fields.js';
import { LexiconNamesSchema } from './lexicon-names.js';

// The public API (issue 16, docs/api.md) --------------------------------------------------------

const slider = (kind: keyof typeof SLIDERS) =>
  z.optional(
    z
      .number({
        error: `${kind} must be a number from ${SLIDERS[kind].min} to ${SLIDERS[kind].max}.`,
      })
      .check(
        z.int({ error: `${kind} must be a whole number.` }),
        z.minimum(SLIDERS[kind].min, { error: `${kind} must be at least ${SLIDERS[kind].min}.` }),
        z.maximum(SLIDERS[kind].max, { error: `${kind} must be at most ${SLIDERS[kind].max}.` }),
      ),
  );

/** POST /api/v1/speech: `text`, and any voice setting under a short name. */
export const ApiSpeechInputSchema = z
  .strictObject(
    {
      text: z
        .string({ error: 'text is required: the text or SSML to speak.' })
        .check(z.minLength(1, { error: 'text is required: the text or SSML to speak.' }), noNul),
      voice: z.optional(voiceId('voice')),
      language: z.optional(languageCode('language')),
      engine: z.optional(oneOf('engine', ENGINES)),
      format: z.optional(oneOf('format', AUDIO_FORMATS)),
      sample_rate: z.optional(
        z.union(
          SAMPLE_RATES.map((rate) => z.literal(rate)),
          { error: `sample_rate must be one of ${SAMPLE_RATES.join(', ')}.` },
        ),
      ),
      speed: slider('speed'),
      volume: slider('volume'),
      pitch: slider('pitch'),
      effect: z.optional(z.nullable(oneOf('effect', VOICE_EFFECTS))),
      /** Pronunciation lexicons to apply, in order; absent: the key owner's default ones. */
      lexicon_names: z.optional(LexiconNamesSchema),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}.` : undefined,
    },
  )
  .register(z.globalRegistry, {
    examples: [
      { text: 'Hello from Parla.' },
      { text: 'Bonjour à tous.', language: 'fr-FR', format: 'ogg', speed: 10 },
      {
        text: '<speak>Take a breath <break time="500ms"/> and go on.</speak>',
        voice: 'standard:en-us+f2',
        format: 'wav',
      },
    ],
  });

export type ApiSpeechInput = z.infer<typeof ApiSpeechInputSchema>;

/** POST /api/v1/speech with Accept: application/json: SPEC §7's answer and the characters. */
export const ApiSpeechResultSchema = z.extend(ConvertResultSchema, {
  characters: z.number().check(z.int()),
});
export type ApiSpeechResult = z.infer<typeof ApiSpeechResultSchema>;

// Binary answers, as the OpenAPI document shows them --------------------------------------------

/** Audio bytes (mp3, ogg or wav), streamed, not JSON. */
export const AudioBodySchema = z.string().register(z.globalRegistry, {
  format: 'binary',
  description: 'The audio (mp3, ogg or wav), streamed',
});

/** A text file answered as it is (SSML, WebVTT, SRT), not JSON. */
export const TextBodySchema = (description: string) =>
  z.string().register(z.globalRegistry, { description });

/**
 * The header of a speech marks answer: `true` when the set is whole, `false` for the marks of
 * the words heard so far of a conversion still rendering as a stream (ask again for the rest).
 */
export const MARKS_COMPLETE_HEADER = 'X-Parla-Marks-Complete';
