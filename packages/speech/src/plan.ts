import type { EmphasisLevel, VoiceEffect } from '@parla/contract';
import type { DocumentItem, Phonemes, Prosody, SpeechDocument, VoiceGender } from './document.js';
import { SpeechError } from './errors.js';
import { maxAudioSeconds } from './ssml/limits.js';

/**
 * Splits a normalised document into sentences, the unit of rendering and streaming. A
 * sentence holds speech pieces (runs of text that share voice, effect and prosody, rendered
 * by one espeak-ng call), breaks and bleeps. Breaks that follow a sentence's last words stay
 * with that sentence, so its audio already ends with the pause. A `<s>` is followed by at
 * least 0.2 s of silence and a `<p>` by at least 0.4 s before the next words.
 */

export interface SpeechPart {
  text: string;
  emphasis?: EmphasisLevel;
  spell?: boolean;
  phonemes?: Phonemes;
  /** A `<mark>` between the words of a piece (its text is empty). */
  mark?: string;
}

export interface SpeechPiece {
  kind: 'speech';
  voice?: string;
  language?: string;
  gender?: VoiceGender;
  effect?: VoiceEffect;
  prosody: Prosody;
  parts: SpeechPart[];
}

export type SentenceUnit =
  | SpeechPiece
  | { kind: 'break'; seconds: number }
  | { kind: 'bleep'; seconds: number; prosody: Prosody }
  | { kind: 'mark'; name: string }
  | { kind: 'breath' };

/** Least silence after a sentence (`<s>`) and a paragraph (`<p>`). */
export const BOUNDARY_SECONDS = { sentence: 0.2, paragraph: 0.4 } as const;

export interface Sentence {
  units: SentenceUnit[];
  /**
   * The text of each planned sentence a group holds (`groupSentences`), so that each still
   * gets its own mark; a sentence that is not a group has none.
   */
  texts?: string[];
}

/** Words after which a full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'jr',
  'sr',
  'mt',
  'm',
  'mme',
  'mlle',
  'dr',
  'hr',
  'fr',
  'sra',
  'sr',
  'srta',
  'z.b',
  'bzw',
  'usw',
  'ca',
]);

/**
 * Where sentences end inside a run of text: after terminal punctuation (and closing quotes or
 * brackets) and the spaces that follow, when the next letter is not lower-case and the word
 * before a full stop is not an abbreviation. Each offset is where the next sentence starts.
 * The one rule for planning (here) and for speech marks and subtitles (marks.ts,
 * docs/decisions/029-sentence-marks-and-cues.md).
 */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  let start = 0;
  // CJK full stops end a sentence without a space after them.
  const pattern = /[.!?…]+["'»”)]*\s+|[。！？]+["'»”」』)）]*\s*/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    const next = text.charAt(end);
    const before = text.slice(start, match.index).split(/\s+/).at(-1)?.toLowerCase() ?? '';
    if (next && next === next.toLowerCase() && next !== next.toUpperCase()) continue;
    if (match[0].startsWith('.') && ABBREVIATIONS.has(before.replace(/\.$/, ''))) continue;
    if (end < text.length) ends.push(end);
    start = end;
  }
  return ends;
}

/** A text cut at its sentence ends (`sentenceEnds`), then at `MAX_SENTENCE_CHARACTERS`. */
function splitSentences(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (const end of sentenceEnds(text)) {
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces.flatMap(splitLong).filter((p) => p.trim() !== '');
}

/**
 * The most characters rendered as one sentence. A longer run without a full stop (a list of
 * digits, a spelled-out text) is cut after a comma or a space, so that the audio of a sentence,
 * held whole while it is processed, and the wait for the first sound stay bounded. A run of
 * CJK characters (a syllable each, and no spaces) is cut at a tenth of that, after a CJK comma
 * when there is one (docs/decisions/034-cost-queues-and-crashes.md).
 */
export const MAX_SENTENCE_CHARACTERS = 500;
export const MAX_CJK_SENTENCE_CHARACTERS = 100;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

function splitLong(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  for (;;) {
    const ahead = rest.slice(0, MAX_SENTENCE_CHARACTERS);
    // Mostly CJK: the shorter bound.
    const cjk = 2 * (ahead.match(CJK)?.length ?? 0) > ahead.length;
    const max = cjk ? MAX_CJK_SENTENCE_CHARACTERS : MAX_SENTENCE_CHARACTERS;
    if (rest.length <= max) break;
    const window = rest.slice(0, max);
    const comma = Math.max(
      window.lastIndexOf(', ') + 1,
      window.lastIndexOf('; ') + 1,
      window.lastIndexOf('、'),
      window.lastIndexOf('，'),
      window.lastIndexOf('；'),
    );
    const space = window.search(/\s\S*$/);
    const half = max / 2;
    let cut = comma > half ? comma + 1 : space > half ? space + 1 : max;
    // Never between the two halves of a surrogate pair.
    if (/[\uD800-\uDBFF]/.test(rest.charAt(cut - 1))) cut -= 1;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}

export function planSentences(document: SpeechDocument): Sentence[] {
  const sentences: Sentence[] = [];
  let current: SentenceUnit[] = [];
  // True once the current sentence has words: later breaks still belong to it.
  let ended = false;
  // Silence owed after the last `</s>` or `</p>`, paid before the next words.
  let owed = 0;

  // Characters of text in the current sentence.
  let length = 0;

  const flush = () => {
    if (current.length > 0) sentences.push({ units: current });
    current = [];
    ended = false;
    length = 0;
  };

  /** Before the next sound: the silence since the last one is at least what is owed. */
  const payOwed = () => {
    const previous = sentences.at(-1);
    if (owed > 0 && previous) {
      // `current` holds at most breaks and marks here: they come before the next sound.
      const before = [...previous.units, ...current];
      let since = 0;
      for (let i = before.length - 1; i >= 0; i--) {
        const unit = before[i];
        if (unit?.kind === 'break') since += unit.seconds;
        else if (unit?.kind !== 'mark') break;
      }
      if (since < owed) previous.units.push({ kind: 'break', seconds: owed - since });
    }
    owed = 0;
  };

  const addText = (item: DocumentItem & { kind: 'text' }, text: string) => {
    // Many short spans (a thousand <say-as> elements) make no sentence longer than the limit.
    if (ended || (length > 0 && length + text.length > MAX_SENTENCE_CHARACTERS)) flush();
    length += text.length;
    const last = current.at(-1);
    const part: SpeechPart = {
      text,
      ...(item.emphasis && { emphasis: item.emphasis }),
      ...(item.spell && { spell: true }),
      ...(item.phonemes && { phonemes: item.phonemes }),
    };
    const piece: SpeechPiece = {
      kind: 'speech',
      prosody: item.prosody,
      parts: [part],
      ...(item.voice !== undefined && { voice: item.voice }),
      ...(item.language !== undefined && { language: item.language }),
      ...(item.gender !== undefined && { gender: item.gender }),
      ...(item.effect !== undefined && { effect: item.effect }),
    };
    if (last?.kind === 'speech' && samePiece(last, piece)) last.parts.push(part);
    else current.push(piece);
  };

  for (const item of document.items) {
    if (item.kind === 'text' || item.kind === 'bleep' || item.kind === 'breath') payOwed();
    switch (item.kind) {
      case 'boundary':
        // After sound, or right after another boundary (`</s></p>` owes the paragraph's).
        if (owed > 0 || current.some((unit) => unit.kind !== 'break' && unit.kind !== 'mark')) {
          owed = Math.max(owed, BOUNDARY_SECONDS[item.level]);
        }
        flush();
        break;
      case 'break': {
        // A pause after a finished sentence ends that sentence's audio.
        const previous = sentences.at(-1);
        if (current.length === 0 && previous)
          previous.units.push({ kind: 'break', seconds: item.seconds });
        else current.push({ kind: 'break', seconds: item.seconds });
        break;
      }
      case 'bleep':
        if (ended) flush();
        current.push({ kind: 'bleep', seconds: item.seconds, prosody: item.prosody });
        break;
      case 'mark': {
        if (ended) flush();
        // Inside a run of words it goes with them (one engine call, no pause).
        const last = current.at(-1);
        if (last?.kind === 'speech') last.parts.push({ text: '', mark: item.name });
        else current.push({ kind: 'mark', name: item.name });
        break;
      }
      case 'breath':
        if (ended) flush();
        current.push({ kind: 'breath' });
        break;
      case 'text': {
        // Spelled text and say-as output never end a sentence.
        const pieces = item.spell ? splitLong(item.text) : splitSentences(item.text);
        pieces.forEach((piece, index) => {
          addText(item, piece);
          if (index < pieces.length - 1 || /[.!?…。！？]["'»”)]*\s*$/.test(piece)) ended = true;
        });
        break;
      }
    }
  }
  flush();
  return sentences;
}

/** The words of a sentence, for its mark. */
export function sentenceText(sentence: Sentence): string {
  return sentence.units
    .flatMap((unit) => (unit.kind === 'speech' ? unit.parts.map((p) => p.text) : []))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/ ([,.;:!?])/g, '$1')
    .trim();
}

function samePiece(a: SpeechPiece, b: SpeechPiece): boolean {
  return (
    a.voice === b.voice &&
    a.language === b.language &&
    a.gender === b.gender &&
    a.effect === b.effect &&
    a.prosody.rate === b.prosody.rate &&
    a.prosody.pitch === b.prosody.pitch &&
    a.prosody.volume === b.prosody.volume
  );
}

/** Characters of text a sentence speaks. */
export function characters(sentence: Sentence): number {
  return sentence.units.reduce(
    (sum, unit) =>
      sum + (unit.kind === 'speech' ? unit.parts.reduce((s, p) => s + p.text.length, 0) : 0),
    0,
  );
}

/**
 * Merges consecutive sentences into groups, for a backend whose every call starts a process
 * (the native espeak-ng program, which takes about 7 ms to load its data). The first group is
 * the first sentence alone, so that the first audio comes early; the rest is cut into as few
 * groups of about equal size as `maxChars` allows, but into two when there are `2 × minChars`
 * or more, so that two processes can run at once. Adjacent pieces with the same settings
 * become one espeak-ng call.
 */
export function groupSentences(
  sentences: readonly Sentence[],
  maxChars = 1500,
  minChars = 200,
): Sentence[] {
  const [first, ...rest] = sentences;
  if (!first) return [];
  const total = rest.reduce((sum, sentence) => sum + characters(sentence), 0);
  const count = Math.max(total >= 2 * minChars ? 2 : 1, Math.ceil(total / maxChars));
  const groups: Sentence[] = [copy(first)];
  let before = 0; // characters of the rest before this sentence
  let current: { index: number; group: Sentence } | undefined;
  for (const sentence of rest) {
    const size = characters(sentence);
    // Each sentence goes to the group its middle falls in.
    const index = Math.min(count - 1, Math.floor(((before + size / 2) * count) / total || 0));
    before += size;
    if (current?.index !== index) {
      current = { index, group: { ...copy(sentence), texts: [sentenceText(sentence)] } };
      groups.push(current.group);
      continue;
    }
    append(current.group, sentence);
  }
  return groups;
}

/** A sentence added at the end of a group: its text for its mark, its units joined on. */
function append(group: Sentence, sentence: Sentence): void {
  group.texts?.push(sentenceText(sentence));
  for (const unit of sentence.units) {
    const last = group.units.at(-1);
    if (unit.kind === 'speech' && last?.kind === 'speech' && samePiece(last, unit)) {
      last.parts.push(...unit.parts.map((part) => ({ ...part })));
    } else {
      group.units.push(copyUnit(unit));
    }
  }
}

/**
 * Consecutive sentences packed into as few groups as hold at most `maxChars` characters each
 * (a sentence longer alone is a group alone), for an engine that sends whole texts to a
 * provider with a limit per call (`SpeechEngine.renderRun`): each group is then one call per
 * voice, cut only at sentence ends (docs/decisions/033-whole-ssml-to-remote-voices.md).
 */
export function packSentences(sentences: readonly Sentence[], maxChars: number): Sentence[] {
  const groups: Sentence[] = [];
  let size = 0;
  for (const sentence of sentences) {
    const length = characters(sentence);
    const group = groups.at(-1);
    // The space that joins two sentences counts too.
    if (group && size + 1 + length <= maxChars) {
      append(group, sentence);
      size += 1 + length;
    } else {
      groups.push({ ...copy(sentence), texts: [sentenceText(sentence)] });
      size = length;
    }
  }
  return groups;
}

function copyUnit(unit: SentenceUnit): SentenceUnit {
  return unit.kind === 'speech' ? { ...unit, parts: [...unit.parts] } : unit;
}

function copy(sentence: Sentence): Sentence {
  return { units: sentence.units.map(copyUnit) };
}

/**
 * The scripts a voice reads as words, by the base of its language code (espeak-ng's and the
 * neural voices' codes); Latin letters are read as words by every voice. A letter of another
 * script is named, not read: an English voice says "Chinese letter" for 中 (0.7 s), "Ethiopic
 * letter one two zero zero" for ሀ (1.9 s), "Bengali" and the letter for ক (1.1 s).
 */
const SCRIPTS: [RegExp, readonly string[]][] = [
  [/\p{Script=Han}/u, ['zh', 'cmn', 'yue', 'hak', 'ja', 'ko']],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, ['ja']],
  [/\p{Script=Hangul}/u, ['ko']],
  [
    /\p{Script=Cyrillic}/u,
    ['ru', 'uk', 'be', 'bg', 'mk', 'sr', 'kk', 'ky', 'ba', 'tt', 'cv', 'mn', 'cu'],
  ],
  [/\p{Script=Greek}/u, ['el', 'grc']],
  [/\p{Script=Arabic}/u, ['ar', 'fa', 'ur', 'ps', 'sd', 'ku', 'ug']],
  [/\p{Script=Hebrew}/u, ['he', 'yi']],
  [/\p{Script=Devanagari}/u, ['hi', 'mr', 'ne', 'sa', 'kok', 'mai']],
  [/\p{Script=Bengali}/u, ['bn', 'as', 'bpy']],
  [/\p{Script=Gurmukhi}/u, ['pa']],
  [/\p{Script=Gujarati}/u, ['gu']],
  [/\p{Script=Oriya}/u, ['or']],
  [/\p{Script=Tamil}/u, ['ta']],
  [/\p{Script=Telugu}/u, ['te']],
  [/\p{Script=Kannada}/u, ['kn']],
  [/\p{Script=Malayalam}/u, ['ml']],
  [/\p{Script=Sinhala}/u, ['si']],
  [/\p{Script=Georgian}/u, ['ka']],
  [/\p{Script=Armenian}/u, ['hy']],
  [/\p{Script=Ethiopic}/u, ['am']],
  [/\p{Script=Myanmar}/u, ['my']],
  [/\p{Script=Thai}/u, ['th']],
];

/** One syllable a character (CJK): what a voice of the language takes to say one, at rate 1. */
const SYLLABLE_SECONDS = 0.36;
/** A named letter of a script the voice does not read (and a fullwidth form: "fullwidth…"). */
const NAMED_LETTER_SECONDS = 1.5;
/** A symbol (%, €, an emoji) is read by its name: "percent", "grinning face". */
const SYMBOL_SECONDS = 0.6;

/** Seconds one character takes at rate 1 for a voice of `language`, words apart. */
function characterSeconds(character: string, language: string): number {
  if (/\p{N}/u.test(character)) return 0.13;
  if (/[\uff00-\uffef]/.test(character)) return NAMED_LETTER_SECONDS;
  if (/\p{S}/u.test(character)) return SYMBOL_SECONDS;
  if (!/\p{L}/u.test(character)) return 0;
  if (/\p{Script=Latin}/u.test(character)) return 0.05;
  const script = SCRIPTS.find(([pattern]) => pattern.test(character));
  if (!script?.[1].includes(language.toLowerCase().split('-')[0] ?? '')) {
    return NAMED_LETTER_SECONDS;
  }
  return CJK_ONE.test(character) ? SYLLABLE_SECONDS : 0.05;
}

const CJK_ONE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Seconds of speech of a piece at rate 1, measured on espeak-ng (en-us and cmn, 175 words a
 * minute): about 0.05 s a letter, 0.13 s a digit (a long number is read in groups, a spaced one
 * digit by digit at 0.28 s) and 0.12 s between words; a CJK character is a syllable (0.36 s), a
 * letter of a script the voice does not read is named (1.5 s), a symbol too (0.6 s). It errs
 * on the long side.
 */
function speechSeconds(text: string, language: string): number {
  let seconds = 0;
  for (const token of text.split(/\s+/)) {
    if (token === '') continue;
    seconds += 0.12;
    for (const character of token) seconds += characterSeconds(character, language);
  }
  return seconds;
}

/** The engines' range of speaking rates (espeak-ng: 80 to 450 words a minute). */
const RATE_RANGE = [0.45, 3] as const;

/** The language of the voice that speaks a piece (the request's voice by default). */
export type PieceLanguage = (piece: SpeechPiece) => string;

/** Seconds of audio the sentences will last at the master rate, estimated before rendering. */
export function estimateSeconds(
  sentences: readonly Sentence[],
  masterRate = 1,
  languageOf: PieceLanguage = () => 'en',
): number {
  let seconds = 0;
  for (const sentence of sentences) {
    for (const unit of sentence.units) {
      if (unit.kind === 'break') seconds += unit.seconds;
      else if (unit.kind === 'bleep') seconds += unit.seconds / (masterRate * unit.prosody.rate);
      else if (unit.kind === 'breath') seconds += 0.43;
      else if (unit.kind === 'speech') {
        const rate = Math.min(
          RATE_RANGE[1],
          Math.max(RATE_RANGE[0], masterRate * unit.prosody.rate),
        );
        const language = languageOf(unit);
        for (const part of unit.parts) seconds += speechSeconds(part.text, language) / rate;
      }
    }
  }
  return seconds;
}

/**
 * Refuses (`limit_exceeded`) a text whose audio would last longer than its length allows
 * (ssml/limits.ts), before any of it is rendered.
 */
export function checkAudioLength(
  sentences: readonly Sentence[],
  sourceLength: number,
  masterRate = 1,
  languageOf?: PieceLanguage,
): void {
  const limit = maxAudioSeconds(sourceLength);
  const estimate = estimateSeconds(sentences, masterRate, languageOf);
  if (estimate > limit) {
    throw new SpeechError(
      'limit_exceeded',
      `This text would make about ${Math.round(estimate)} s of audio (pauses included); a text of ${sourceLength} characters may make at most ${limit} s. Shorten it, its pauses or its spelled-out parts, or speak faster.`,
    );
  }
}
