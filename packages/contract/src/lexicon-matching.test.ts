import { describe, expect, it } from 'vitest';
import { compileLexicon, findLexiconMatches, lexiconLanguageApplies } from './lexicon-matching.js';
import { type LexiconEntryInput, LexiconEntrySchema } from './lexicons.js';

const lexicon = (name: string, entries: LexiconEntryInput[]) =>
  compileLexicon({
    name,
    language: 'en-US',
    entries: entries.map((entry) => LexiconEntrySchema.parse(entry)),
  });

const found = (text: string, ...lexicons: ReturnType<typeof lexicon>[]) =>
  findLexiconMatches(text, lexicons.flat()).map((match) => [
    text.slice(match.start, match.end),
    match.compiled.lexicon,
  ]);

describe('lexicon matching', () => {
  it('matches whole words in any case by default, across any whitespace', () => {
    const names = lexicon('Names', [
      { grapheme: 'Nguyen', alias: 'win' },
      { grapheme: 'New York', alias: 'NYC' },
    ]);
    expect(found('NGUYEN met nguyens in New\n  York.', names)).toEqual([
      ['NGUYEN', 'Names'],
      ['New\n  York', 'Names'],
    ]);
  });

  it('keeps to the case and finds parts of words when asked', () => {
    const strict = lexicon('Strict', [
      { grapheme: 'US', alias: 'United States', case_sensitive: true },
      { grapheme: 'café', alias: 'cafe', whole_word: false },
    ]);
    expect(found('us and US at the cafés', strict)).toEqual([
      ['US', 'Strict'],
      ['café', 'Strict'],
    ]);
  });

  it('takes the first lexicon at each place, and never overlaps', () => {
    const first = lexicon('First', [{ grapheme: 'York', alias: 'first' }]);
    const second = lexicon('Second', [
      { grapheme: 'York', alias: 'second' },
      { grapheme: 'New York', alias: 'NYC' },
    ]);
    expect(found('York', first, second)).toEqual([['York', 'First']]);
    expect(found('York', second, first)).toEqual([['York', 'Second']]);
    // An earlier place wins over a later one: "New York" starts before "York".
    expect(found('New York', first, second)).toEqual([['New York', 'Second']]);
    expect(found('a+b (c)', lexicon('Symbols', [{ grapheme: 'a+b', alias: 'x' }]))).toEqual([
      ['a+b', 'Symbols'],
    ]);
  });

  it('applies a language to its regional variants', () => {
    expect(lexiconLanguageApplies('en', 'en-US')).toBe(true);
    expect(lexiconLanguageApplies('en-US', 'en-us')).toBe(true);
    expect(lexiconLanguageApplies('en-GB', 'en-US')).toBe(false);
    expect(lexiconLanguageApplies('fr', 'en-US')).toBe(false);
  });
});
