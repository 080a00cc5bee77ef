import { describe, expect, it } from 'vitest';
import {
  checkAudioLength,
  estimateSeconds,
  groupSentences,
  packSentences,
  planSentences,
  type Sentence,
  sentenceText,
} from './plan.js';
import { parseSsml } from './ssml/parser.js';

const plain = { rate: 1, pitch: 0, volume: 0 };

function sentence(text: string, prosody = plain): Sentence {
  return { units: [{ kind: 'speech', prosody, parts: [{ text }] }] };
}

/** Sentences of about 100 characters each. */
function sentences(count: number): Sentence[] {
  return Array.from({ length: count }, (_, i) =>
    sentence(
      `Sentence number ${String(i).padStart(3, '0')} says a little about speech and goes on a while.`.padEnd(
        100,
        '.',
      ),
    ),
  );
}

const chars = (group: Sentence) => sentenceText(group).length;

describe('packSentences (as few provider calls as a limit allows, decision 033)', () => {
  it('packs consecutive whole sentences up to the limit, the space between them counted', () => {
    // 100 characters each: 29 fit in 2,999 (29 × 100 + 28 spaces = 2,928), 30 do not.
    const groups = packSentences(sentences(45), 3000);
    expect(groups).toHaveLength(2);
    expect(groups.map((group) => group.texts?.length)).toEqual([29, 16]);
    for (const group of groups) expect(chars(group)).toBeLessThanOrEqual(3000);
    // Each sentence keeps its own text for its mark, in order.
    expect(groups.flatMap((group) => group.texts)).toEqual(
      sentences(45).map((one) => sentenceText(one)),
    );
  });

  it('keeps a sentence longer than the limit whole, alone, and what fits in one group', () => {
    const long = sentence('Long. '.repeat(20).trim());
    const groups = packSentences([sentence('Short one.'), long, sentence('After it.')], 50);
    expect(groups.map((group) => group.texts)).toEqual([
      ['Short one.'],
      [sentenceText(long)],
      ['After it.'],
    ]);
    expect(packSentences(sentences(3), 4096)).toHaveLength(1);
  });
});

describe('groupSentences (one process per group for the native espeak-ng program)', () => {
  it('keeps the first sentence alone, so that the first audio comes early', () => {
    const groups = groupSentences(sentences(10));
    expect(sentenceText(groups[0] as Sentence)).toBe(sentenceText(sentences(1)[0] as Sentence));
  });

  it('cuts the rest into two groups of about equal size, which run at once', () => {
    const groups = groupSentences(sentences(9));
    expect(groups).toHaveLength(3);
    expect(chars(groups[1] as Sentence)).toBe(chars(groups[2] as Sentence));
  });

  it('keeps a short rest in one group, and a single sentence as it is', () => {
    expect(groupSentences(sentences(3))).toHaveLength(2);
    expect(groupSentences(sentences(1))).toHaveLength(1);
    expect(groupSentences([])).toEqual([]);
  });

  it('makes no group much larger than maxChars, and as few as that allows', () => {
    const groups = groupSentences(sentences(100), 1500);
    // 9,900 characters after the first sentence: seven groups of about 1,400.
    expect(groups).toHaveLength(8);
    for (const group of groups.slice(1)) {
      expect(chars(group)).toBeLessThanOrEqual(1500 + 100);
      expect(chars(group)).toBeGreaterThan(1200);
    }
  });

  it('keeps every sentence, in order, and merges pieces with the same settings only', () => {
    const input = [
      ...sentences(5),
      sentence('Louder now.', { ...plain, volume: 6 }),
      { units: [{ kind: 'break', seconds: 1 }] } satisfies Sentence,
      ...sentences(3),
    ];
    const groups = groupSentences(input);
    const text = (list: Sentence[]) => list.map(sentenceText).filter(Boolean).join(' ');
    expect(text(groups)).toBe(text(input));
    const pieces = groups.flatMap((group) => group.units);
    // The louder sentence and the break stay units of their own; the plain ones are merged.
    expect(pieces.filter((unit) => unit.kind === 'break')).toHaveLength(1);
    const loud = pieces.filter((unit) => unit.kind === 'speech' && unit.prosody.volume === 6);
    expect(loud).toHaveLength(1);
    expect(pieces.length).toBeLessThan(input.length);
    // The input is not changed.
    expect(input[1]?.units).toHaveLength(1);
  });
});

describe('planSentences', () => {
  const plan = (ssml: string) => planSentences(parseSsml(ssml));
  const pauses = (sentences: Sentence[]) =>
    sentences.map((s) =>
      s.units.filter((u) => u.kind === 'break').map((u) => Math.round(u.seconds * 1000) / 1000),
    );

  it('ends a <s> with at least 0.2 s and a <p> with at least 0.4 s, but not the last one', () => {
    expect(pauses(plan('<s>One</s><s>Two</s>'))).toEqual([[0.2], []]);
    expect(pauses(plan('<p><s>One</s></p><p>Two</p>'))).toEqual([[0.4], []]);
    // A longer pause already there is kept as it is.
    expect(pauses(plan('<p>One</p><break time="1s"/><p>Two</p>'))).toEqual([[1], []]);
    expect(pauses(plan('<p>One</p><break time="100ms"/><p>Two</p>'))).toEqual([[0.1, 0.3], []]);
  });

  it('keeps a mark inside its run of words, or as a unit of its own at a pause', () => {
    const [sentence] = plan('One <mark name="a"/> two<break time="1s"/><mark name="b"/>three');
    expect(sentence?.units.map((u) => u.kind)).toEqual(['speech', 'break', 'mark', 'speech']);
    const first = sentence?.units[0];
    expect(first?.kind === 'speech' && first.parts.map((p) => p.mark ?? p.text)).toEqual([
      'One ',
      'a',
      ' two',
    ]);
  });
});

describe('checkAudioLength', () => {
  it('estimates speech, breaks and rate, and refuses what the length does not allow', () => {
    const prose = planSentences(
      parseSsml('The quick brown fox jumps over the lazy dog. '.repeat(20)),
    );
    // About 0.06 s a character: 900 characters are about a minute.
    expect(estimateSeconds(prose)).toBeGreaterThan(50);
    expect(estimateSeconds(prose)).toBeLessThan(70);
    expect(estimateSeconds(prose, 2)).toBeCloseTo(estimateSeconds(prose) / 2, 5);
    expect(() => checkAudioLength(prose, 900)).not.toThrow();
    const breaks = planSentences(parseSsml('<break time="10s"/>'.repeat(8)));
    expect(estimateSeconds(breaks)).toBe(80);
    expect(() => checkAudioLength(breaks, 152)).toThrow(
      expect.objectContaining({
        code: 'limit_exceeded',
        message: expect.stringMatching(/about 80 s .* at most 60 s\./),
      }),
    );
  });
});

describe('long runs without a full stop', () => {
  it('are cut into sentences of at most 500 characters, after a comma or a space', () => {
    const digits = Array.from({ length: 2000 }, (_, i) => i % 10).join(' ');
    const sentences = planSentences(parseSsml(digits));
    expect(sentences.length).toBeGreaterThanOrEqual(8);
    for (const sentence of sentences)
      expect(sentenceText(sentence).length).toBeLessThanOrEqual(500);
    expect(sentences.map(sentenceText).join(' ')).toBe(digits);
    const listed = planSentences(parseSsml(`${'word, '.repeat(100)}end`));
    expect(sentenceText(listed[0] as Sentence)).toMatch(/word,$/);
    const unbroken = planSentences(parseSsml('7'.repeat(1200)));
    expect(unbroken.map((s) => sentenceText(s).length)).toEqual([500, 500, 200]);
    const spelled = planSentences({
      sourceLength: 100,
      warnings: [],
      items: [
        {
          kind: 'text',
          text: 'x '.repeat(400),
          spell: true,
          prosody: plain,
          source: { line: 1, column: 1 },
        },
      ],
    });
    expect(spelled.map((s) => sentenceText(s).length)).toEqual([499, 299]);
  });
});

describe('many short spans in one sentence', () => {
  it('are cut into sentences of at most 500 characters too', () => {
    const sentences = planSentences(
      parseSsml('<say-as interpret-as="characters">ABCDEFGHIJ</say-as> '.repeat(120)),
    );
    expect(sentences.length).toBeGreaterThanOrEqual(3);
    for (const sentence of sentences)
      expect(sentenceText(sentence).length).toBeLessThanOrEqual(550);
  });
});
