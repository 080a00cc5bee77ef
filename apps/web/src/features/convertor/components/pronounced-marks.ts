import type { CompiledLexiconEntry, LexiconMatch } from '@parla/contract';
import classes from './spoken-word.module.css';

/**
 * The words the user's lexicons change (issue 32, item 3), as both editors mark them: the Text
 * tab (pronounced-words-plugin.ts, ProseMirror) and the SSML tab (ssml-pronounced-words.ts,
 * CodeMirror), each a decoration over the text, never a change to the document.
 */
export interface PronouncedMarks {
  /** The entries of the lexicons a conversion applies, in order (compileLexicon of the contract). */
  entries: readonly CompiledLexiconEntry[];
  /** The mark's title: how the word is said and by which lexicon. */
  describe: (entry: CompiledLexiconEntry) => string;
}

export const NO_PRONOUNCED_MARKS: PronouncedMarks = { entries: [], describe: () => '' };

/** The attributes of a marked word's `<mark>`: its title says how it is said, and by which lexicon. */
export function pronouncedAttributes(marks: PronouncedMarks, match: LexiconMatch) {
  return {
    class: classes.pronounced ?? '',
    title: marks.describe(match.compiled),
    'data-pronounced': match.compiled.lexicon,
  };
}
