import * as z from 'zod/mini';

// The names of pronunciation lexicons as a conversion gives them (`lexicon_names`): apart from
// lexicons.ts so that the convertor's payload (convertor.ts, api.ts, jobs.ts) does not bring
// the lexicon calls' messages and limits into the web app's first load.

/** A name of 1 to 20 letters and digits (Polly's rule); at most 5 lexicons a conversion. */
export const LEXICON_NAME_LIMITS = { nameLength: 20, perConversion: 5 } as const;

export const LEXICON_NAME_MESSAGES = {
  nameInvalid: `A lexicon name is 1 to ${LEXICON_NAME_LIMITS.nameLength} letters (A-Z, a-z) and digits.`,
  namesTooMany: `lexicon_names lists at most ${LEXICON_NAME_LIMITS.perConversion} lexicons.`,
  namesRepeated: 'lexicon_names lists a lexicon twice.',
} as const;

/** A lexicon's name, as Polly's: 1 to 20 letters and digits, unique per user. */
export const LexiconNameSchema = z.string({ error: LEXICON_NAME_MESSAGES.nameInvalid }).check(
  z.regex(new RegExp(`^[A-Za-z0-9]{1,${LEXICON_NAME_LIMITS.nameLength}}$`), {
    error: LEXICON_NAME_MESSAGES.nameInvalid,
  }),
);

/**
 * `lexicon_names` of a conversion: the lexicons to apply, in order (the first entry that
 * matches a word wins, as in Polly); absent: the caller's default lexicons; `[]`: none.
 */
export const LexiconNamesSchema = z
  .array(LexiconNameSchema, { error: 'lexicon_names must be a list of lexicon names.' })
  .check(
    z.maxLength(LEXICON_NAME_LIMITS.perConversion, { error: LEXICON_NAME_MESSAGES.namesTooMany }),
    z.refine((names) => new Set(names).size === names.length, {
      error: LEXICON_NAME_MESSAGES.namesRepeated,
    }),
  );

/** `lexicon_names` of a multipart form field too: the names separated by commas. */
export const LexiconNamesFieldSchema = z.union([
  LexiconNamesSchema,
  z.pipe(
    z.pipe(
      z.string(),
      z.transform((text) =>
        text
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
      ),
    ),
    LexiconNamesSchema,
  ),
]);
