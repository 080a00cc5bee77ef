import { describe, expect, it } from 'vitest';
import type { RunItem } from '../types.js';
import { partsToText, splitRun } from './segment.js';

type SpeechItem = Extract<RunItem, { kind: 'speech' }>;

const say = (text: string, rate = 1): SpeechItem => ({
  kind: 'speech',
  parts: [{ text }],
  rate,
  pitch: 0,
  volume: 0,
});
const size = (item: SpeechItem) => partsToText(item.parts).length + 1;
const texts = (calls: RunItem[][]) =>
  calls.map((call) =>
    call.map((item) => (item.kind === 'break' ? `<${item.seconds}s>` : partsToText(item.parts))),
  );

describe('splitRun (a run into provider calls, decision 033)', () => {
  it('keeps a run that fits in one call, breaks and a lone "." included', () => {
    const items: RunItem[] = [
      say('First we speak plainly.'),
      say('Then we slow down', 0.8),
      say('for a while.'),
      { kind: 'break', seconds: 0.7 },
      say('And this ends'),
      say('loudly'),
      say('.'),
    ];
    expect(splitRun(items, 3000, size)).toEqual([items]);
  });

  it('starts a call where the next item would pass the limit, a break ending the call before', () => {
    const items: RunItem[] = [
      say('One sentence of text.'),
      { kind: 'break', seconds: 1 },
      say('Another sentence here.'),
    ];
    expect(texts(splitRun(items, 30, size))).toEqual([
      ['One sentence of text.', '<1s>'],
      ['Another sentence here.'],
    ]);
  });

  it('starts a call where what is done after a call changes (its key)', () => {
    const items = [say('Slow at first.', 0.1), say('Then normal.'), say('Still normal.')];
    const calls = splitRun(items, 3000, size, (item) => String(item.rate < 0.2));
    expect(texts(calls)).toEqual([['Slow at first.'], ['Then normal.', 'Still normal.']]);
  });

  it('cuts an item too long alone after a sentence end, never inside a sentence', () => {
    const sentence = 'This sentence is one of several in a paragraph.';
    const long = say(Array.from({ length: 6 }, () => sentence).join(' '));
    const calls = splitRun([long], 120, size);
    expect(calls.length).toBeGreaterThan(1);
    for (const call of texts(calls)) {
      const [text] = call;
      expect(text?.length).toBeLessThanOrEqual(120);
      expect(text).toMatch(/^This sentence .*paragraph\.$/);
    }
    expect(texts(calls).flat().join(' ')).toBe(partsToText(long.parts));
  });
});
