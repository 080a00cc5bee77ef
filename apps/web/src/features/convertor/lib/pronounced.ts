import type { LexiconEntry, PhonemeAlphabet } from '@parla/contract';
import { escapeText } from './ssml-document';

/**
 * The words of a text that the user's lexicons change (issue 32, item 3), for the editors to
 * mark, and the SSML that says one word a given way (the Pronunciation dialog's preview).
 */

/** An entry of one of the lexicons a conversion applies, with the lexicon it comes from. */
export type PronouncedWord = Pick<
  LexiconEntry,
  'grapheme' | 'case_sensitive' | 'whole_word' | 'alias' | 'phoneme'
> & { lexicon: string };

export interface PronouncedRange {
  from: number;
  to: number;
  word: PronouncedWord;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the entries match in `text` (offsets into it), as the server matches them: whole words
 * unless `whole_word` is false, any case unless `case_sensitive`; the first entry that matches
 * a place wins (lexicons in order, as Polly), and matches never overlap.
 */
export function findPronounced(text: string, words: readonly PronouncedWord[]): PronouncedRange[] {
  const taken: PronouncedRange[] = [];
  for (const word of words) {
    const grapheme = word.grapheme.trim();
    if (!grapheme) continue;
    const body = escapeRegExp(grapheme);
    const source = word.whole_word ? `(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])` : body;
    const pattern = new RegExp(source, word.case_sensitive ? 'gu' : 'giu');
    for (const match of text.matchAll(pattern)) {
      const from = match.index;
      const to = from + match[0].length;
      if (taken.some((range) => from < range.to && to > range.from)) continue;
      taken.push({ from, to, word });
    }
  }
  return taken.sort((a, b) => a.from - b.from);
}

/** How the dialog says a word: a respelling (alias) or a phoneme string in an alphabet. */
export type Pronunciation =
  | { kind: 'alias'; alias: string }
  | { kind: 'phoneme'; phoneme: string; alphabet: PhonemeAlphabet };

const attribute = (value: string) => escapeText(value).replaceAll('"', '&quot;');

/** The SSML that says `word` as `how` (SSML 1.1 `<sub>` or `<phoneme>`). */
export function pronunciationSsml(word: string, how: Pronunciation): string {
  const text = escapeText(word);
  return how.kind === 'alias'
    ? `<speak><sub alias="${attribute(how.alias)}">${text}</sub></speak>`
    : `<speak><phoneme alphabet="${how.alphabet}" ph="${attribute(how.phoneme)}">${text}</phoneme></speak>`;
}
