import type { PhonemeAlphabet } from '@parla/contract';
import { escapeText } from './ssml-document';

/** The SSML that says one word a given way: the Pronunciation dialog's preview (issue 32). */

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
