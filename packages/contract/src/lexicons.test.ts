import { describe, expect, it } from 'vitest';
import { JobSettingsSchema } from './jobs.js';
import { LexiconNameSchema, LexiconNamesSchema } from './lexicon-names.js';
import { LEXICON_MESSAGES, LexiconEntrySchema, LexiconInputSchema } from './lexicons.js';

describe('lexicon names', () => {
  it('are 1 to 20 letters and digits', () => {
    expect(LexiconNameSchema.safeParse('Names2').success).toBe(true);
    for (const bad of ['', 'a'.repeat(21), 'my-names', 'über', '../x']) {
      const parsed = LexiconNameSchema.safeParse(bad);
      expect(parsed.error?.issues[0]?.message).toBe(LEXICON_MESSAGES.nameInvalid);
    }
  });

  it('of a conversion are at most five, each once', () => {
    expect(LexiconNamesSchema.safeParse(['a', 'b']).success).toBe(true);
    expect(
      LexiconNamesSchema.safeParse(['a', 'b', 'c', 'd', 'e', 'f']).error?.issues[0]?.message,
    ).toBe(LEXICON_MESSAGES.namesTooMany);
    expect(LexiconNamesSchema.safeParse(['a', 'a']).error?.issues[0]?.message).toBe(
      LEXICON_MESSAGES.namesRepeated,
    );
  });

  it('of a job may come as comma-separated text', () => {
    expect(JobSettingsSchema.parse({ lexicon_names: 'Names, Brands' }).lexicon_names).toEqual([
      'Names',
      'Brands',
    ]);
    expect(JobSettingsSchema.safeParse({ lexicon_names: 'a,b-c' }).success).toBe(false);
  });
});

describe('lexicon entries', () => {
  it('fill in their defaults', () => {
    expect(
      LexiconEntrySchema.parse({ grapheme: ' W3C ', alias: 'World Wide Web Consortium' }),
    ).toEqual({
      grapheme: 'W3C',
      case_sensitive: false,
      whole_word: true,
      alias: 'World Wide Web Consortium',
      phoneme: null,
      alphabet: null,
      language: null,
    });
  });

  it('have an alias or a phoneme string, not both, not neither', () => {
    for (const entry of [
      { grapheme: 'x' },
      { grapheme: 'x', alias: 'ex', phoneme: 'ɛks' },
      { grapheme: 'x', alias: '  ' },
    ]) {
      const parsed = LexiconEntrySchema.safeParse(entry);
      expect(parsed.error?.issues.map((issue) => issue.message)).toContain(
        LEXICON_MESSAGES.aliasOrPhoneme,
      );
    }
    expect(
      LexiconEntrySchema.safeParse({ grapheme: 'x', phoneme: 'Eks', alphabet: 'x-sampa' }).success,
    ).toBe(true);
  });

  it('refuse long strings and unknown alphabets with the field named', () => {
    const messages = (entry: object) =>
      LexiconEntrySchema.safeParse(entry).error?.issues.map((issue) => issue.message);
    expect(messages({ grapheme: 'x'.repeat(101), alias: 'y' })).toEqual([
      LEXICON_MESSAGES.graphemeTooLong,
    ]);
    expect(messages({ grapheme: 'x', phoneme: 'p', alphabet: 'sapi' })).toEqual([
      LEXICON_MESSAGES.alphabet,
    ]);
    expect(messages({ grapheme: 'x', alias: 'y', language: 'english!' })).toEqual([
      'language must be a BCP-47 language code, such as en-US.',
    ]);
  });

  it('make up a lexicon with a language', () => {
    expect(LexiconInputSchema.parse({ language: 'en-US', entries: [] })).toEqual({
      language: 'en-US',
      default: false,
      entries: [],
    });
  });
});
