import * as z from 'zod/mini';
import type { PlanType, Role } from './constants.js';
import { MessageResponseSchema } from './errors.js';
import { languageCode } from './fields.js';
import { LEXICON_NAME_LIMITS, LEXICON_NAME_MESSAGES, LexiconNameSchema } from './lexicon-names.js';

// Pronunciation lexicons (issue 32, docs/api.md "Pronunciation lexicons") ---------------------
//
// Routes (every one signed in, API keys allowed):
//   GET    /api/lexicons          LexiconListSchema: the caller's lexicons and their plan's limits
//   GET    /api/lexicons/{name}   LexiconSchema (JSON), or the W3C PLS 1.0 file with
//                                 `Accept: application/pls+xml` (or `?format=pls`)
//   PUT    /api/lexicons/{name}   LexiconInputSchema as JSON, or a PLS file with
//                                 `Content-Type: application/pls+xml` (then `?default=true|false`
//                                 sets `default`; absent keeps it): creates or replaces it whole;
//                                 answers LexiconSchema (201 created, 200 replaced)
//   POST   /api/lexicons/{name}/rename  LexiconRenameInputSchema: gives the lexicon another
//                                 name, keeping its entries, language and place among the
//                                 defaults; answers LexiconSchema (409 when the name is taken)
//   DELETE /api/lexicons/{name}   MessageResponseSchema
// A conversion names the lexicons it applies with `lexicon_names` (POST /api/convertor,
// POST /api/v1/speech, POST /api/jobs); without it, the caller's default lexicons apply.

/** Media type of a W3C Pronunciation Lexicon Specification 1.0 file (RFC 4267). */
export const PLS_MEDIA_TYPE = 'application/pls+xml';

/** The alphabets of a phoneme string, as SSML's `<phoneme alphabet>` and PLS name them. */
export const PHONEME_ALPHABETS = ['ipa', 'x-sampa'] as const;
export type PhonemeAlphabet = (typeof PHONEME_ALPHABETS)[number];

/**
 * Limits of one lexicon and one request, Amazon Polly's where it has one (its "Quotas" page):
 * a name of 1 to 20 letters and digits, a PLS file of at most 40,000 characters, a grapheme,
 * alias or phoneme string of at most 100 characters, at most 5 lexicons per conversion.
 */
export const LEXICON_LIMITS = {
  ...LEXICON_NAME_LIMITS,
  fileCharacters: 40_000,
  graphemeLength: 100,
  aliasLength: 100,
  phonemeLength: 100,
} as const;

/** How many lexicons a user may keep, and how many entries each may hold, per plan. */
export const LEXICON_PLAN_LIMITS: Record<PlanType, { lexicons: number; entries: number }> = {
  FREE: { lexicons: 1, entries: 25 },
  BASIC: { lexicons: 10, entries: 200 },
  PREMIUM: { lexicons: 50, entries: 500 },
  BUSINESS: { lexicons: 100, entries: 1000 },
};

/** A user's lexicon limits: their plan's, or the largest for roles other than USER. */
export function lexiconLimits(plan: PlanType, role: Role): { lexicons: number; entries: number } {
  return LEXICON_PLAN_LIMITS[role === 'USER' ? plan : 'BUSINESS'];
}

/** Every message of the lexicon calls, word for word as the server answers them. */
export const LEXICON_MESSAGES = {
  ...LEXICON_NAME_MESSAGES,
  notFound: (name: string) => `You have no lexicon named "${name}".`,
  unknownInConversion: (name: string) =>
    `lexicon_names: you have no lexicon named "${name}"; see GET /api/lexicons.`,
  tooManyLexicons: (limit: number) =>
    `Your plan keeps at most ${limit} lexicon${limit === 1 ? '' : 's'}; delete one or upgrade your plan.`,
  tooManyEntries: (count: number, limit: number) =>
    `This lexicon has ${count} entries; your plan allows at most ${limit} in a lexicon.`,
  fileTooLong: (length: number) =>
    `A PLS file is at most ${LEXICON_LIMITS.fileCharacters} characters; this one has ${length}.`,
  graphemeRequired: 'grapheme is required: the word or words to pronounce.',
  graphemeTooLong: `grapheme is at most ${LEXICON_LIMITS.graphemeLength} characters.`,
  aliasTooLong: `alias is at most ${LEXICON_LIMITS.aliasLength} characters.`,
  phonemeTooLong: `phoneme is at most ${LEXICON_LIMITS.phonemeLength} characters.`,
  aliasOrPhoneme: 'An entry has either an alias or a phoneme string, not both and not neither.',
  alphabet: `alphabet must be one of ${PHONEME_ALPHABETS.join(', ')}.`,
  graphemeRepeated: (grapheme: string) =>
    `"${grapheme}" has two entries with the same case rule; keep one.`,
  deleted: (name: string) => `Lexicon "${name}" deleted.`,
  nameTaken: (name: string) =>
    `You already have a lexicon named "${name}"; choose another name or delete that one first.`,
  /** The body of a PUT is neither JSON nor a PLS file. */
  mediaType: `Send the lexicon as JSON or as a PLS file (Content-Type: ${PLS_MEDIA_TYPE}).`,
  /** A PLS file that cannot be read: `line:column: reason`. */
  badPls: (line: number, column: number, reason: string) =>
    `The PLS file is not valid at ${line}:${column}: ${reason}.`,
} as const;

/** An entry's alias or phoneme string: null, or 1 to `max` characters once trimmed. */
function pronunciation(max: number, tooLong: string) {
  const text = z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: LEXICON_MESSAGES.aliasOrPhoneme }),
      z.maxLength(max, { error: tooLong }),
    );
  return z._default(z.nullable(text), null);
}

/**
 * One pronunciation: a grapheme (a word or words, as written), matched with or without case
 * and as whole words or anywhere, and either an alias (text said instead, like SSML `<sub>`)
 * or a phoneme string (like SSML `<phoneme>`) in an alphabet. `language` (BCP-47) narrows the
 * entry to voices of that language; null: the lexicon's language.
 */
export const LexiconEntrySchema = z
  .object({
    grapheme: z
      .string({ error: LEXICON_MESSAGES.graphemeRequired })
      .check(
        z.trim(),
        z.minLength(1, { error: LEXICON_MESSAGES.graphemeRequired }),
        z.maxLength(LEXICON_LIMITS.graphemeLength, { error: LEXICON_MESSAGES.graphemeTooLong }),
      ),
    /** Match only the same upper and lower case (default: any case). */
    case_sensitive: z._default(z.boolean(), false),
    /** Match only whole words (default); false: also inside longer words. */
    whole_word: z._default(z.boolean(), true),
    /** Text said instead of the grapheme, as SSML `<sub alias>`; null with a phoneme. */
    alias: pronunciation(LEXICON_LIMITS.aliasLength, LEXICON_MESSAGES.aliasTooLong),
    /** How to say the grapheme, as SSML `<phoneme ph>`; null with an alias. */
    phoneme: pronunciation(LEXICON_LIMITS.phonemeLength, LEXICON_MESSAGES.phonemeTooLong),
    /** The alphabet of `phoneme` (default ipa); null with an alias. */
    alphabet: z._default(
      z.nullable(z.enum(PHONEME_ALPHABETS, { error: LEXICON_MESSAGES.alphabet })),
      null,
    ),
    language: z._default(z.nullable(languageCode('language')), null),
  })
  .check(
    z.refine((entry) => (entry.alias === null) !== (entry.phoneme === null), {
      error: LEXICON_MESSAGES.aliasOrPhoneme,
      path: ['alias'],
    }),
  );
/** An entry as sent (defaults may be left out). */
export type LexiconEntryInput = z.input<typeof LexiconEntrySchema>;
/** An entry as stored and answered, every field present. */
export type LexiconEntry = z.output<typeof LexiconEntrySchema>;

/** PUT /api/lexicons/{name} as JSON: the whole lexicon (it replaces the one of that name). */
export const LexiconInputSchema = z.object({
  /** BCP-47: the language of its entries (PLS's `xml:lang`), e.g. en-US. */
  language: languageCode('language'),
  /** Applied to every conversion that names no lexicons (default false). */
  default: z._default(z.boolean(), false),
  entries: z.array(LexiconEntrySchema, { error: 'entries must be a list of entries.' }),
});
export type LexiconInput = z.input<typeof LexiconInputSchema>;

/** `?default=` of a PUT with a PLS body: true or false; absent keeps what the lexicon had. */
export const LexiconPutQuerySchema = z.object({
  default: z.optional(z.stringbool({ error: 'default must be true or false.' })),
});

/** GET /api/lexicons/{name}: `?format=pls` answers the PLS file (as `Accept` does). */
export const LexiconGetQuerySchema = z.object({
  format: z.optional(z.enum(['json', 'pls'], { error: 'format must be json or pls.' })),
});

export const LexiconNameParamsSchema = z.object({ name: LexiconNameSchema });

/** POST /api/lexicons/{name}/rename: the lexicon's new name (the same name changes nothing). */
export const LexiconRenameInputSchema = z.object({ name: LexiconNameSchema });
export type LexiconRenameInput = z.infer<typeof LexiconRenameInputSchema>;

export const LexiconSummarySchema = z.object({
  name: z.string(),
  language: z.string(),
  /** Applied when a conversion names no lexicons, in `default_position` order. */
  default: z.boolean(),
  /** Its place among the default lexicons (1 first), null when not a default. */
  default_position: z.nullable(z.number().check(z.int())),
  entries: z.number().check(z.int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type LexiconSummary = z.infer<typeof LexiconSummarySchema>;

export const LexiconSchema = z.extend(LexiconSummarySchema, {
  entries: z.array(LexiconEntrySchema),
});
export type Lexicon = z.infer<typeof LexiconSchema>;

/** GET /api/lexicons: the caller's lexicons by name, and what the plan allows. */
export const LexiconListSchema = z.object({
  lexicons: z.array(LexiconSummarySchema),
  limits: z.object({
    lexicons: z.number().check(z.int()),
    entries: z.number().check(z.int()),
  }),
});
export type LexiconList = z.infer<typeof LexiconListSchema>;

export const LexiconDeletedSchema = MessageResponseSchema;
