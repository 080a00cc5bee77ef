import { describe, expect, it } from 'vitest';
import { withEntry } from './lexicons';

describe("an entry saved into a lexicon's entries", () => {
  const entries = [
    { grapheme: 'Nguyen', alias: 'win' },
    { grapheme: 'US', alias: 'United States', case_sensitive: true },
  ];

  it('replaces the entry for the same word under its case rule', () => {
    expect(withEntry(entries, { grapheme: ' nguyen ', alias: 'nwen' })).toEqual([
      { grapheme: ' nguyen ', alias: 'nwen' },
      entries[1],
    ]);
    expect(withEntry(entries, { grapheme: 'US', alias: 'U S', case_sensitive: true })).toEqual([
      entries[0],
      { grapheme: 'US', alias: 'U S', case_sensitive: true },
    ]);
  });

  it('adds a word of another case rule or another spelling at the end', () => {
    expect(withEntry(entries, { grapheme: 'us', alias: 'us', case_sensitive: true })).toHaveLength(
      3,
    );
    expect(withEntry(entries, { grapheme: 'Win', alias: 'win' }).at(-1)).toEqual({
      grapheme: 'Win',
      alias: 'win',
    });
  });
});
