import type { SpeechMark } from '@parla/contract';
import { expect } from 'vitest';

/**
 * Test support for speech marks and subtitles (docs/decisions/029-sentence-marks-and-cues.md):
 * a generated corpus of plain-text paragraphs whose sentences are known, and the checks of
 * marks and subtitles against the text they were made from.
 */

const NOUNS = [
  'farmer',
  'valley',
  'river',
  'window',
  'teacher',
  'garden',
  'letter',
  'station',
  'kitchen',
  'mountain',
  'doctor',
  'market',
  'village',
  'engine',
  'story',
  'bridge',
  'forest',
  'child',
  'painter',
  'harbour',
  'lamp',
  'road',
  'winter',
  'question',
  'answer',
  'morning',
  'city',
];
const VERBS = [
  'opened',
  'watched',
  'carried',
  'followed',
  'painted',
  'visited',
  'found',
  'left',
  'built',
  'remembered',
  'crossed',
  'closed',
  'heard',
  'wanted',
  'cleaned',
  'counted',
  'answered',
];
const ADJECTIVES = [
  'cold',
  'quiet',
  'old',
  'bright',
  'narrow',
  'small',
  'heavy',
  'green',
  'strange',
  'early',
  'long',
  'empty',
  'warm',
  'tired',
  'careful',
  'distant',
];
const DETERMINERS = ['the', 'a', 'the', 'this', 'every', 'an old', 'the', 'a'];
const PLACES = [
  'in the morning',
  'after a while',
  'near the river',
  'for a moment',
  'at the end of the day',
  'with a smile',
  'on the way home',
  'before the rain',
];
const NAMES = ['Anna', 'Peter', 'Maria', 'Tom', 'Clara', 'Henry'];
const OPENERS = ['Then', 'Later', 'Inside', 'Of course', 'Still', 'Yesterday', 'Suddenly'];

/** A small deterministic generator (mulberry32), so that the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface CorpusParagraph {
  text: string;
  sentences: string[];
}

/**
 * `count` paragraphs of two to six sentences: statements, questions and exclamations, short
 * ones and long ones with commas (longer than one subtitle cue holds), numbers, names, and the
 * short words ("a", "the", "of") that espeak-ng says together with their neighbours.
 */
export function corpus(count: number, seed = 27): CorpusParagraph[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const phrase = () => `${pick(DETERMINERS)} ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const clause = () => {
    const subject = next() < 0.3 ? pick(NAMES) : phrase();
    return `${subject} ${pick(VERBS)} ${phrase()}${next() < 0.5 ? ` ${pick(PLACES)}` : ''}`;
  };
  const sentence = () => {
    const kind = next();
    if (kind < 0.15) return `Did ${phrase()} ${pick(VERBS).replace(/ed$/, '')} ${phrase()}?`;
    if (kind < 0.25)
      return `${capital(phrase())} ${pick(VERBS)} ${1 + Math.floor(next() * 90)} ${pick(NOUNS)}s!`;
    if (kind < 0.55) {
      // Long: three or four clauses joined by commas, well over 84 characters.
      const clauses = Array.from({ length: 3 + Math.floor(next() * 2) }, clause);
      return `${pick(OPENERS)}, ${clauses.join(', and ')}.`;
    }
    return `${capital(clause())}.`;
  };
  return Array.from({ length: count }, () => {
    const sentences = Array.from({ length: 2 + Math.floor(next() * 5) }, sentence);
    return { text: sentences.join(' '), sentences };
  });
}

/** The words of a plain text as a reader counts them: spaced runs trimmed of punctuation. */
export function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => word !== '');
}

export interface Cue {
  from: number;
  to: number;
  lines: string[];
}

/** Reads the cues of a WebVTT file (as `subtitles` writes them: no settings, no notes). */
export function parseVtt(vtt: string): Cue[] {
  expect(vtt.startsWith('WEBVTT\n\n')).toBe(true);
  const time = (stamp: string) => {
    const [h, m, s] = stamp.split(':').map(Number);
    return Math.round(((h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0)) * 1000);
  };
  return vtt
    .slice('WEBVTT\n\n'.length)
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const [timing = '', ...lines] = block.trimEnd().split('\n');
      const [from = '', to = ''] = timing.split(' --> ');
      return {
        from: time(from),
        to: time(to),
        lines: lines.map((line) => line.replaceAll('&lt;', '<').replaceAll('&amp;', '&')),
      };
    });
}

/**
 * The checks of issue 27 on the marks and subtitles of a plain `text` whose sentences are
 * `sentences`: one sentence mark a sentence, with its text; one word mark a word, where it was
 * typed, in time order; cues that are the sentences' own text, never across a sentence end,
 * at most two lines of 42 characters, in time order within the audio.
 */
export function expectMarksOfText(
  text: string,
  sentences: readonly string[],
  marks: readonly SpeechMark[],
  vtt: string,
  duration: number,
): void {
  const found = marks.filter((mark) => mark.type === 'sentence');
  expect(found.map((mark) => mark.value)).toEqual(sentences);
  for (const mark of found) expect(text.slice(mark.start, mark.end)).toBe(mark.value);
  const words = marks.filter((mark) => mark.type === 'word');
  expect(words.map((mark) => mark.value)).toEqual(wordsOf(text));
  for (const mark of words) expect(text.slice(mark.start, mark.end)).toBe(mark.value);
  const times = marks.map((mark) => mark.time);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(times.at(-1) ?? 0).toBeLessThanOrEqual(duration * 1000);
  // Each sentence's words come after it and before the next sentence.
  for (const [i, sentence] of found.entries()) {
    const inside = words.filter((w) => w.start >= sentence.start && w.end <= sentence.end);
    expect(inside.length).toBeGreaterThan(0);
    for (const word of inside) {
      expect(word.time).toBeGreaterThanOrEqual(sentence.time);
      expect(word.time).toBeLessThanOrEqual(found[i + 1]?.time ?? Number.POSITIVE_INFINITY);
    }
  }

  const cues = parseVtt(vtt);
  let sentence = 0;
  let heard = '';
  for (const cue of cues) {
    expect(cue.lines.length).toBeGreaterThan(0);
    expect(cue.lines.length).toBeLessThanOrEqual(2);
    for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    expect(cue.to).toBeGreaterThan(cue.from);
    expect(cue.to).toBeLessThanOrEqual(Math.ceil(duration * 1000));
    heard = heard === '' ? cue.lines.join(' ') : `${heard} ${cue.lines.join(' ')}`;
    const whole = sentences[sentence] ?? '';
    // A cue never holds the end of one sentence and the start of the next.
    expect(whole.startsWith(heard), `cue "${heard}" in "${whole}"`).toBe(true);
    if (heard === whole) {
      sentence += 1;
      heard = '';
    }
  }
  expect(heard).toBe('');
  expect(sentence).toBe(sentences.length);
  const starts = cues.map((cue) => cue.from);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
}
