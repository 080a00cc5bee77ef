import { countCharacters, type PhonemeAlphabet } from '@parla/contract';

/**
 * SSML's pronunciation markup (issue 32, item 3): `<phoneme>` (a phoneme string), `<sub>`
 * (a text said instead) and `<lang>` (a language), for the SSML tab's toolbar and completion,
 * and for the Pronunciation dialog, whose preview says a word the way it is being given.
 */

export const PRONUNCIATION_TAGS = ['phoneme', 'sub', 'lang'] as const;
export type PronunciationTag = (typeof PRONUNCIATION_TAGS)[number];

/** XML-escaped for a text or a double-quoted attribute (`&`, `<`, `"`). */
const escaped = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');

/** The opening and closing tags of one, with its value (escaped for an attribute). */
export function markupOf(
  tag: PronunciationTag,
  value: string,
  alphabet: PhonemeAlphabet = 'ipa',
): { open: string; close: string } {
  const quoted = escaped(value);
  if (tag === 'phoneme') {
    return { open: `<phoneme alphabet="${alphabet}" ph="${quoted}">`, close: '</phoneme>' };
  }
  if (tag === 'sub') return { open: `<sub alias="${quoted}">`, close: '</sub>' };
  return { open: `<lang xml:lang="${quoted}">`, close: '</lang>' };
}

/**
 * What inserting one costs in characters: its markup, as the counter and the server count the
 * text sent (SPEC §5), so an empty value gives the least it costs.
 */
export function costOf(tag: PronunciationTag, value = ''): number {
  const { open, close } = markupOf(tag, value);
  return countCharacters(`${open}${close}`);
}

/** How the dialog says a word: a respelling (alias) or a phoneme string in an alphabet. */
export type Pronunciation =
  | { kind: 'alias'; alias: string }
  | { kind: 'phoneme'; phoneme: string; alphabet: PhonemeAlphabet };

/** The SSML that says `word` as `how`: the dialog's preview. */
export function pronunciationSsml(word: string, how: Pronunciation): string {
  const { open, close } =
    how.kind === 'alias'
      ? markupOf('sub', how.alias)
      : markupOf('phoneme', how.phoneme, how.alphabet);
  return `<speak>${open}${escaped(word)}${close}</speak>`;
}
