import type { SpeechMark } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { readAlongPieces, wordAt, wordMarks } from './spoken-word';

const word = (time: number, start: number, end: number, value: string): SpeechMark => ({
  time,
  type: 'word',
  start,
  end,
  value,
});

describe('the word being heard', () => {
  const words = [word(0, 0, 5, 'Hello'), word(400, 6, 11, 'there'), word(2600, 13, 18, 'again')];

  it('is the last word started at or before the time', () => {
    expect(wordAt(words, 0)).toBe(0);
    expect(wordAt(words, 0.399)).toBe(0);
    expect(wordAt(words, 0.4)).toBe(1);
    expect(wordAt(words, 2.5)).toBe(1);
    expect(wordAt(words, 30)).toBe(2);
    expect(wordAt([word(100, 0, 1, 'a')], 0.05)).toBe(-1);
  });

  it('counts an expansion (the same offsets) once, and leaves out sentences', () => {
    const marks: SpeechMark[] = [
      { time: 0, type: 'sentence', start: 0, end: 10, value: 'I have 42.' },
      word(0, 0, 1, 'I'),
      word(100, 7, 9, '42'),
      word(300, 7, 9, '42'),
    ];
    expect(wordMarks(marks).map((m) => m.time)).toEqual([0, 100]);
  });
});

describe('the read-along text', () => {
  it('is the plain text cut into its words', () => {
    const text = 'Hello there, again!';
    const pieces = readAlongPieces(
      text,
      [word(0, 0, 5, 'Hello'), word(400, 6, 11, 'there'), word(900, 13, 18, 'again')],
      false,
    );
    expect(pieces.map((p) => p.text).join('')).toBe(text);
    expect(pieces.filter((p) => p.kind === 'word').map((p) => p.text)).toEqual([
      'Hello',
      'there',
      'again',
    ]);
  });

  it('leaves out the tags of SSML and decodes its entities', () => {
    const ssml = 'Tom &amp; <prosody rate="slow">Jerry</prosody><break time="1s"/>ran.';
    const pieces = readAlongPieces(
      ssml,
      [word(0, 0, 3, 'Tom'), word(300, 31, 36, 'Jerry'), word(900, 64, 67, 'ran')],
      true,
    );
    expect(pieces.map((p) => p.text).join('')).toBe('Tom & Jerry ran.');
    expect(pieces.find((p) => p.kind === 'word' && p.index === 1)?.text).toBe('Jerry');
  });
});
