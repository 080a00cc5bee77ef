/**
 * The IPA keypad of the Pronunciation dialog (issue 32, item 3): the symbols of a language's
 * phonemes that a keyboard does not have (plain letters such as p, t, k, m are typed), with
 * stress and length marks. The sets follow the phoneme inventories of Wikipedia's "Help:IPA"
 * page of each language; a language without its own set gets the common symbols.
 */

const MARKS = ['ˈ', 'ˌ', 'ː'];

const COMMON = [
  'ə',
  'ɛ',
  'ɪ',
  'ɔ',
  'ʊ',
  'æ',
  'ɑ',
  'ʌ',
  'ʃ',
  'ʒ',
  'θ',
  'ð',
  'ŋ',
  'ɲ',
  'ʁ',
  'ɾ',
  'x',
  'ʔ',
];

const BY_LANGUAGE: Record<string, readonly string[]> = {
  en: [
    'ə',
    'ɪ',
    'ɛ',
    'æ',
    'ʌ',
    'ɑ',
    'ɒ',
    'ɔ',
    'ʊ',
    'ɜ',
    'ɚ',
    'eɪ',
    'aɪ',
    'ɔɪ',
    'aʊ',
    'oʊ',
    'əʊ',
    'θ',
    'ð',
    'ʃ',
    'ʒ',
    'tʃ',
    'dʒ',
    'ŋ',
    'ɹ',
  ],
  fr: ['ə', 'ɛ', 'ɔ', 'ø', 'œ', 'y', 'ɑ̃', 'ɛ̃', 'ɔ̃', 'œ̃', 'ɥ', 'ʃ', 'ʒ', 'ɲ', 'ŋ', 'ʁ'],
  de: [
    'ə',
    'ɐ',
    'ɛ',
    'ɪ',
    'ɔ',
    'ʊ',
    'ʏ',
    'ø',
    'œ',
    'y',
    'aɪ',
    'aʊ',
    'ɔʏ',
    'ç',
    'x',
    'ʃ',
    'ʒ',
    'ŋ',
    'ʁ',
    'pf',
    'ts',
    'ʔ',
  ],
  es: ['β', 'ð', 'ɣ', 'θ', 'ʝ', 'ɲ', 'ʎ', 'ɾ', 'r', 'x', 'tʃ', 'ŋ'],
  ar: ['ʔ', 'θ', 'ð', 'ʃ', 'ħ', 'ʕ', 'x', 'ɣ', 'q', 'ðˤ', 'sˤ', 'tˤ', 'dˤ', 'ʒ', 'aː', 'iː', 'uː'],
};

/** The keys of a voice language's keypad ('en-us' → English's), marks last. */
export function ipaKeys(languageCode: string): string[] {
  const primary = languageCode.toLowerCase().split(/[-_]/)[0] ?? '';
  return [...(BY_LANGUAGE[primary] ?? COMMON), ...MARKS];
}
