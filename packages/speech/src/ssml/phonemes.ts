/**
 * `<phoneme alphabet="ipa|x-sampa" ph="…">` to espeak-ng's phoneme mnemonics, which espeak-ng
 * speaks when they are written `[[…]]` (docs: espeak-ng phonemes.md; the native program reads
 * them, the WebAssembly build does not). X-SAMPA is first turned into IPA, then each IPA symbol
 * (longest match first) into its mnemonic. The table covers the symbols of the languages with
 * full say-as support (English, French, German, Spanish) and the common ones of the rest; a
 * pronunciation using any other symbol answers undefined, and its text is spoken instead.
 */

/** X-SAMPA to IPA (the symbols the table below knows, plus stress, length and nasality). */
const X_SAMPA: Record<string, string> = {
  '@`': 'ɚ',
  '3`': 'ɝ',
  'r\\': 'ɹ',
  'h\\': 'ɦ',
  'R\\': 'ʀ',
  '@': 'ə',
  '{': 'æ',
  A: 'ɑ',
  E: 'ɛ',
  I: 'ɪ',
  O: 'ɔ',
  Q: 'ɒ',
  U: 'ʊ',
  V: 'ʌ',
  '3': 'ɜ',
  '2': 'ø',
  '9': 'œ',
  Y: 'ʏ',
  '6': 'ɐ',
  '1': 'ɨ',
  '}': 'ʉ',
  T: 'θ',
  D: 'ð',
  S: 'ʃ',
  Z: 'ʒ',
  N: 'ŋ',
  J: 'ɲ',
  L: 'ʎ',
  R: 'ʁ',
  '4': 'ɾ',
  X: 'χ',
  G: 'ɣ',
  C: 'ç',
  B: 'β',
  '?': 'ʔ',
  '"': 'ˈ',
  '%': 'ˌ',
  ':': 'ː',
  '~': '\u0303',
  '.': '.',
};

/** IPA to espeak-ng mnemonics. Longer sequences (diphthongs, affricates) come first. */
const IPA: [string, string][] = [
  ['tʃ', 'tS'],
  ['t͡ʃ', 'tS'],
  ['dʒ', 'dZ'],
  ['d͡ʒ', 'dZ'],
  ['ts', 'ts'],
  ['pf', 'pf'],
  ['eɪ', 'eI'],
  ['aɪ', 'aI'],
  ['aʊ', 'aU'],
  ['ɔɪ', 'OI'],
  ['oʊ', 'oU'],
  ['əʊ', '@U'],
  ['ɪə', 'i@'],
  ['eə', 'e@'],
  ['ɛə', 'e@'],
  ['ʊə', 'U@'],
  ['ɑ̃', 'A~'],
  ['ɛ̃', 'E~'],
  ['ɔ̃', 'O~'],
  ['œ̃', 'W~'],
  ['ɜː', '3:'],
  ['ɝ', '3:'],
  ['ɚ', '3'],
  ['ə', '@'],
  ['æ', 'a'],
  ['ɑ', 'A'],
  ['ɒ', '0'],
  ['ɔ', 'O'],
  ['ʌ', 'V'],
  ['ɪ', 'I'],
  ['ʊ', 'U'],
  ['ɛ', 'E'],
  ['ɜ', '3'],
  ['ø', 'Y'],
  ['œ', 'W'],
  ['ʏ', 'y'],
  ['ɐ', '6'],
  ['ɨ', 'i"'],
  ['ʉ', 'u"'],
  ['a', 'a'],
  ['e', 'e'],
  ['i', 'i'],
  ['o', 'o'],
  ['u', 'u'],
  ['y', 'y'],
  ['θ', 'T'],
  ['ð', 'D'],
  ['ʃ', 'S'],
  ['ʒ', 'Z'],
  ['ŋ', 'N'],
  ['ɲ', 'n^'],
  ['ʎ', 'l^'],
  ['ɹ', 'r'],
  ['r', 'r'],
  ['ɾ', 't#'],
  ['ʁ', 'R'],
  ['ʀ', 'R'],
  ['χ', 'X'],
  ['x', 'x'],
  ['ɣ', 'Q'],
  ['ç', 'C'],
  ['β', 'B'],
  ['ɦ', 'h'],
  ['ʔ', '?'],
  ['ɡ', 'g'],
  ...[...'bdfghjklmnpstvwz'].map((c): [string, string] => [c, c]),
  ['ˈ', "'"],
  ["'", "'"],
  ['ˌ', ','],
  ['ː', ':'],
  ['ˑ', ''],
  ['.', ''],
  ['‿', ''],
  [' ', ' '],
];

function xSampaToIpa(ph: string): string {
  const keys = Object.keys(X_SAMPA).sort((a, b) => b.length - a.length);
  let out = '';
  let at = 0;
  while (at < ph.length) {
    const key = keys.find((k) => ph.startsWith(k, at));
    out += key ? X_SAMPA[key] : ph.charAt(at);
    at += key ? key.length : 1;
  }
  return out;
}

/**
 * A pronunciation in IPA (NFC), X-SAMPA converted: what engines that take SSML `<phoneme>`
 * are sent (Azure knows no X-SAMPA). `/…/` and `[…]` around the transcription are dropped.
 */
export function toIpa(alphabet: 'ipa' | 'x-sampa', ph: string): string {
  const trimmed = ph
    .trim()
    .replace(/^[/[]|[/\]]$/g, '')
    .replace(/\s+/g, ' ');
  return (alphabet === 'x-sampa' ? xSampaToIpa(trimmed) : trimmed).normalize('NFC');
}

/**
 * The espeak-ng mnemonics of a pronunciation, or undefined when it uses a symbol the table
 * lacks. Whitespace separates words.
 */
export function toEspeakPhonemes(alphabet: 'ipa' | 'x-sampa', ph: string): string | undefined {
  const ipa = toIpa(alphabet, ph);
  let out = '';
  let at = 0;
  while (at < ipa.length) {
    const match = IPA.find(([symbol]) => ipa.startsWith(symbol, at));
    if (!match) return undefined;
    out += match[1];
    at += match[0].length;
  }
  return out.trim() === '' ? undefined : out.trim();
}
