import { TAG_COSTS } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  characterCounter,
  cleanUploadedText,
  codePoints,
  cutToFit,
  remainingLevel,
  tagFits,
  usedCharacters,
} from './characters';
import { escapeText } from './ssml-document';
import { closingTag, openingTag, TAG_KINDS } from './ssml-tags';

describe('character accounting', () => {
  it('counts what is sent, in code points, markup included', () => {
    expect(usedCharacters('héllo 🎉')).toBe(7);
    expect(usedCharacters('a &amp; b')).toBe(5);
    expect(usedCharacters('<break time="1s" />a')).toBe(20);
    expect(characterCounter('hello', 12)).toEqual({ used: 5, perConvert: 12, remaining: 7 });
    expect(characterCounter('hello', 3).remaining).toBe(0);
  });

  it('inserts pause, speed, volume, pitch and emphasis for exactly their SPEC cost', () => {
    for (const kind of ['pause', 'speed', 'volume', 'pitch', 'emphasis'] as const) {
      const markup = kind === 'pause' ? openingTag(kind) : `${openingTag(kind)}${closingTag(kind)}`;
      expect(usedCharacters(markup), kind).toBe(TAG_COSTS[kind]);
    }
  });

  it('allows a tag only with its cost left', () => {
    for (const kind of TAG_KINDS) {
      expect(tagFits(kind, { used: 0, perConvert: 100, remaining: TAG_COSTS[kind] })).toBe(true);
      expect(tagFits(kind, { used: 0, perConvert: 100, remaining: TAG_COSTS[kind] - 1 })).toBe(
        false,
      );
    }
  });

  it('cuts an insertion to what remains, escapes included', () => {
    const measure = (before: string) => (candidate: string) =>
      usedCharacters(`${before}${escapeText(candidate)}`);
    expect(cutToFit('0123456789', 6, measure('ab'))).toBe('0123');
    expect(cutToFit('🎉🎉🎉', 2, measure(''))).toBe('🎉🎉');
    expect(cutToFit('anything', 3, measure('full'))).toBe('');
    // In a document with markup an & costs five characters.
    expect(cutToFit('&&', 25, measure('<break time="1s" />'))).toBe('&');
  });

  it('removes new lines and tabs from an uploaded text and cuts it to the limit', () => {
    expect(cleanUploadedText('one\r\ntwo\tthree\n', 100)).toBe('one two three ');
    expect(cleanUploadedText('\uFEFFabcdef', 4)).toBe('abcd');
  });

  it('warns within the last tenth of the per-conversion limit, and at zero', () => {
    const at = (used: number, perConvert: number) =>
      remainingLevel({ used, perConvert, remaining: Math.max(0, perConvert - used) });
    expect(at(0, 1000)).toBe('ok');
    expect(at(899, 1000)).toBe('ok');
    expect(at(900, 1000)).toBe('low');
    expect(at(999, 1000)).toBe('low');
    expect(at(1000, 1000)).toBe('out');
    // Limits not known yet: nothing to warn about.
    expect(at(5, Number.POSITIVE_INFINITY)).toBe('ok');
  });

  it('counts code points, as the cut does', () => {
    expect(codePoints('🎉a')).toBe(2);
    expect(codePoints('')).toBe(0);
  });
});
