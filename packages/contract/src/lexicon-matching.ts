import type { LexiconEntry } from './lexicons.js';

/**
 * Where a text's words match the entries of pronunciation lexicons (issue 32): the rule the
 * speech pipeline applies (packages/speech/src/lexicons/apply.ts) and the editor shows, once.
 * A grapheme matches as whole words unless `whole_word` is false, in any case unless
 * `case_sensitive`, its spaces matching any run of whitespace. At each place of the text the
 * first entry in order wins (a longer match does not beat an earlier lexicon, as in Polly), and
 * matches never overlap.
 */

/** A lexicon as matching needs it. */
export interface MatchableLexicon {
  name: string;
  /** BCP-47: the language of the entries that give none. */
  language: string;
  entries: readonly LexiconEntry[];
}

export interface CompiledLexiconEntry {
  entry: LexiconEntry;
  /** The lexicon's name. */
  lexicon: string;
  /** The entry's language, or its lexicon's. */
  language: string;
  pattern: RegExp;
  /** The grapheme's first word, lower-cased: a quick test before the pattern runs. */
  needle: string;
}

export interface LexiconMatch {
  /** Offsets into the text, end exclusive. */
  start: number;
  end: number;
  compiled: CompiledLexiconEntry;
}

const LETTER = '[\\p{L}\\p{N}\\p{M}]';

/** The entries of a lexicon, ready to match. */
export function compileLexicon(lexicon: MatchableLexicon): CompiledLexiconEntry[] {
  return lexicon.entries.map((entry) => {
    const body = entry.grapheme
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
    const source = entry.whole_word ? `(?<!${LETTER})${body}(?!${LETTER})` : body;
    return {
      entry,
      lexicon: lexicon.name,
      language: entry.language ?? lexicon.language,
      pattern: new RegExp(source, `gu${entry.case_sensitive ? '' : 'i'}`),
      needle: entry.grapheme.toLowerCase().split(/\s+/)[0] ?? '',
    };
  });
}

/** Whether an entry of `language` applies to a text read in `spoken` (en applies to en-US). */
export function lexiconLanguageApplies(language: string, spoken: string): boolean {
  const a = language.toLowerCase();
  const b = spoken.toLowerCase();
  return a === b || b.startsWith(`${a}-`) || a.startsWith(`${b}-`);
}

/** The matches of `entries` (in order of precedence) in `text`, in text order. */
export function findLexiconMatches(
  text: string,
  entries: readonly CompiledLexiconEntry[],
): LexiconMatch[] {
  const lower = text.toLowerCase();
  const found: (LexiconMatch & { rank: number })[] = [];
  entries.forEach((compiled, rank) => {
    if (!lower.includes(compiled.needle)) return;
    for (const match of text.matchAll(compiled.pattern)) {
      if (match[0] === '') continue;
      found.push({ start: match.index, end: match.index + match[0].length, rank, compiled });
    }
  });
  found.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const kept: LexiconMatch[] = [];
  for (const { rank: _rank, ...match } of found) {
    const last = kept.at(-1);
    if (!last || match.start >= last.end) kept.push(match);
  }
  return kept;
}
