import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpeechMark } from '@parla/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpus, expectMarksOfText, parseVtt } from '../test/marks-check.js';
import { makeTestVoice } from '../test/test-voice.js';
import { nativeAvailable } from './engines/espeak/backends.js';
import type { SpeechConfig } from './engines/registry.js';
import { speechMarks, speechMarksOf, subtitles } from './marks.js';
import type { Mark } from './stages/render.js';
import { synthesize, synthesizeStream } from './synthesize.js';

/**
 * Speech marks of real renderings on every engine and backend: offsets into the text as
 * typed, times that follow breaks and the speed slider (docs/decisions/019-speech-marks.md).
 */

let voicesDir: string;
beforeAll(async () => {
  voicesDir = await mkdtemp(join(tmpdir(), 'parla-marks-'));
  await makeTestVoice(join(voicesDir, 'test'), { name: 'Test' });
});
afterAll(async () => {
  await rm(voicesDir, { recursive: true, force: true });
});

const CASES = [
  {
    name: 'espeak-ng (WebAssembly)',
    voice: 'standard:en-us',
    config: (): SpeechConfig => ({ espeak: { backend: 'wasm' } }),
  },
  ...((await nativeAvailable())
    ? [
        {
          name: 'espeak-ng (native)',
          voice: 'standard:en-us',
          config: (): SpeechConfig => ({ espeak: { backend: 'native' } }),
        },
      ]
    : []),
  {
    name: 'piper (test voice)',
    voice: 'neural:test',
    config: (): SpeechConfig => ({ piper: { voicesDir } }),
  },
];

const words = (marks: SpeechMark[]) => marks.filter((mark) => mark.type === 'word');

describe.each(CASES)('speech marks: $name', { timeout: 60_000 }, (c) => {
  const marksOf = async (text: string, speed = 0) => {
    const result = await synthesize(
      { voice: c.voice, text, format: 'wav', sampleRate: 16000, speed },
      c.config(),
    );
    return { marks: speechMarks(text, result.marks), duration: result.duration };
  };

  it('finds every word of plain text where it was typed', async () => {
    const text = 'The quick brown fox,\njumps over the lazy dog. Then it sleeps!';
    const { marks, duration } = await marksOf(text);
    const found = words(marks);
    expect(found.map((mark) => mark.value)).toEqual(
      'The quick brown fox jumps over the lazy dog Then it sleeps'.split(' '),
    );
    for (const mark of found) expect(text.slice(mark.start, mark.end)).toBe(mark.value);
    for (const mark of marks.filter((m) => m.type === 'sentence')) {
      expect(text.slice(mark.start, mark.end).replace(/\s+/g, ' ')).toBe(mark.value);
    }
    const times = found.map((mark) => mark.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.at(-1)).toBeLessThan(duration * 1000);
    expect(marks.filter((m) => m.type === 'sentence').map((m) => m.value)).toEqual([
      'The quick brown fox,\njumps over the lazy dog.'.replace('\n', ' '),
      'Then it sleeps!',
    ]);
  });

  it('maps SSML, say-as, sub and marks back to the source, and starts after a 2 s break', async () => {
    const text =
      '<speak>Hello <break time="2s"/>world, I have <say-as interpret-as="cardinal">123</say-as> apples <mark name="here"/>from the <sub alias="World Health Organization">WHO</sub> &amp; friends.</speak>';
    const { marks } = await marksOf(text);
    const found = words(marks);
    // espeak-ng says "the" with the next word, and Piper's test voice does not say "&".
    const heard = found.map((mark) => text.slice(mark.start, mark.end));
    const written = ['Hello', 'world', 'I', 'have', '123', 'apples', 'from', 'the', 'WHO'];
    expect(heard.filter((word) => word !== 'the')).toEqual(
      [...written, '&amp;', 'friends'].filter(
        (word) => word !== 'the' && (word !== '&amp;' || heard.includes(word)),
      ),
    );
    for (const mark of found)
      expect(text.slice(mark.start, mark.end)).toBe(mark.value.replace('&', '&amp;'));
    const [hello, world] = found;
    expect((world?.time ?? 0) - (hello?.time ?? 0)).toBeGreaterThanOrEqual(2000);
    const mark = marks.find((m) => m.type === 'ssml');
    expect(mark && text.slice(mark.start, mark.end)).toBe('<mark name="here"/>');
    expect(mark?.value).toBe('here');
    // Heard between "apples" and "from".
    expect(mark?.time).toBeGreaterThanOrEqual(found[5]?.time ?? 0);
    expect(mark?.time).toBeLessThanOrEqual(found[6]?.time ?? 0);
  });

  it('gives the marks of a streamed rendering chunk by chunk, each set the start of the next and the last the whole set', async () => {
    const text =
      '<speak>This first sentence is long enough to take a few seconds to say. I have <say-as interpret-as="cardinal">123</say-as> apples <mark name="here"/>from the <sub alias="World Health Organization">WHO</sub>. Then one more, and the end!</speak>';
    const heard: Mark[] = [];
    const of = speechMarksOf(text);
    let before: SpeechMark[] = [];
    let chunks = 0;
    for await (const chunk of synthesizeStream(
      { voice: c.voice, text, format: 'mp3', sampleRate: 24000 },
      c.config(),
    )) {
      chunks += 1;
      heard.push(...chunk.marks);
      const soFar = of(heard, true);
      expect(soFar.slice(0, before.length)).toEqual(before);
      // Only words heard: none later than the audio so far.
      const end = (chunk.start + chunk.duration) * 1000;
      for (const mark of soFar) expect(mark.time).toBeLessThanOrEqual(end);
      before = soFar;
    }
    expect(chunks).toBeGreaterThan(2);
    const whole = speechMarks(text, heard);
    expect(whole.slice(0, before.length)).toEqual(before);
    // The words not timed until the end are at most the last ones the engine did not say.
    expect(words(whole).length - words(before).length).toBeLessThanOrEqual(1);
    expect(of(heard)).toEqual(whole);
  });

  it('keeps the words in place and takes half the time at speed +100 %', async () => {
    const text = 'One two three four five six seven eight nine ten.';
    const normal = words((await marksOf(text)).marks);
    const fast = words((await marksOf(text, 100)).marks);
    expect(fast.map((m) => [m.start, m.end])).toEqual(normal.map((m) => [m.start, m.end]));
    const span = (list: SpeechMark[]) => (list.at(-1)?.time ?? 0) - (list[0]?.time ?? 0);
    expect(span(fast) / span(normal)).toBeGreaterThan(0.3);
    expect(span(fast) / span(normal)).toBeLessThan(0.7);
  });
});

/** Issue 27: the generated paragraphs of the corpus, each checked against its text. */
const CORPUS = corpus(50);

describe.each(CASES)('marks and subtitles of a 50-paragraph corpus: $name', (c) => {
  it('gives each sentence and each word its mark, and cues of the text as typed', {
    timeout: 600_000,
  }, async () => {
    expect(CORPUS).toHaveLength(50);
    expect(CORPUS.filter((p) => p.sentences.some((s) => s.length > 84)).length).toBeGreaterThan(10);
    for (const paragraph of CORPUS) {
      const result = await synthesize(
        { voice: c.voice, text: paragraph.text, format: 'wav', sampleRate: 16000 },
        c.config(),
      );
      const marks = speechMarks(paragraph.text, result.marks);
      const vtt = subtitles(marks, result.duration, 'vtt');
      expectMarksOfText(paragraph.text, paragraph.sentences, marks, vtt, result.duration);
    }
  });
});

describe('subtitles', () => {
  const marks: SpeechMark[] = [
    { time: 0, type: 'sentence', start: 0, end: 12, value: 'Hello there.' },
    { time: 5, type: 'word', start: 0, end: 5, value: 'Hello' },
    { time: 400, type: 'word', start: 6, end: 11, value: 'there' },
    { time: 1500, type: 'sentence', start: 13, end: 26, value: 'A < B --> C.' },
    { time: 1500, type: 'word', start: 13, end: 14, value: 'A' },
  ];

  it('writes WebVTT, one cue a sentence shown until the next', () => {
    expect(subtitles(marks, 3.25, 'vtt')).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n00:00:01.500 --> 00:00:03.250\nA &lt; B --&gt; C.\n',
    );
  });

  it('writes SRT with numbered cues and comma milliseconds', () => {
    expect(subtitles(marks, 3.25, 'srt')).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\nHello there.\n\n2\n00:00:01,500 --> 00:00:03,250\nA < B --> C.\n',
    );
  });

  /** The marks of one typed sentence whose words are heard 300 ms apart. */
  const sentenceMarks = (text: string): SpeechMark[] => {
    const list: SpeechMark[] = [
      { time: 0, type: 'sentence', start: 0, end: text.length, value: text },
    ];
    for (const match of text.matchAll(/\S+/g)) {
      const value = match[0].replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      const start = match.index + match[0].indexOf(value);
      list.push({
        time: (list.length - 1) * 300,
        type: 'word',
        start,
        end: start + value.length,
        value,
      });
    }
    return list;
  };

  it('cuts a long sentence between words into cues of two lines of 42 at most', () => {
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const cues = parseVtt(subtitles(sentenceMarks(long), 10, 'vtt'));
    expect(cues.map((cue) => cue.lines.length)).toEqual([2, 2, 1]);
    for (const cue of cues) {
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    expect(cues.map((cue) => cue.lines.join(' ')).join(' ')).toBe(long);
    // Each cue from its first word until the next cue.
    expect(cues.map((cue) => [cue.from, cue.to])).toEqual([
      [0, 3900],
      [3900, 7500],
      [7500, 10000],
    ]);
  });

  it('cuts a long sentence of marks stored without its words, timed by its share of the text', () => {
    const text =
      'Marks stored before every word had one still make cues that two lines hold, each shown in its turn.';
    const cues = parseVtt(
      subtitles(
        [{ time: 1000, type: 'sentence', start: 0, end: text.length, value: text }],
        5,
        'vtt',
      ),
    );
    expect(cues.length).toBe(2);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(2);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(42);
    }
    expect(cues.map((cue) => cue.lines.join(' ')).join(' ')).toBe(text);
    expect(cues[0]?.from).toBe(1000);
    expect(cues[1]?.from).toBeGreaterThan(1000 + 0.6 * 4000);
    expect(cues[1]?.to).toBe(5000);
  });

  it('cuts a long sentence after a comma, keeping its punctuation and quotes (issue 27)', () => {
    const text =
      '"Inside, the cows had been waiting for a while," she said, "and nobody had lit the lamp yet."';
    const cues = parseVtt(
      subtitles(sentenceMarks(text), 20, 'srt')
        .replace(/^\d+\n/gm, '')
        .replace(/,(\d{3})/g, '.$1')
        .replace(/^/, 'WEBVTT\n\n'),
    );
    expect(cues.map((cue) => cue.lines)).toEqual([
      ['"Inside, the cows had been', 'waiting for a while," she said,'],
      ['"and nobody had lit the lamp yet."'],
    ]);
    // Lines are not cut between a short word and the next ("the / lamp").
    const lines = parseVtt(
      subtitles(sentenceMarks('The farmer walked to the barn and opened the door.'), 5, 'vtt'),
    );
    expect(lines.map((cue) => cue.lines)).toEqual([
      ['The farmer walked to the barn', 'and opened the door.'],
    ]);
  });
});

describe('aligning spoken words with the typed text', () => {
  /** Pipeline marks for spoken words, 100 ms apart, in one sentence. */
  const spoken = (words: string[]): Mark[] => [
    { type: 'sentence', start: 0, end: words.length / 10, text: words.join(' ') },
    ...words.map((text, i) => ({ type: 'word' as const, start: i / 10, end: (i + 1) / 10, text })),
  ];
  const found = (source: string, words: string[]) =>
    speechMarks(source, spoken(words))
      .filter((mark) => mark.type === 'word')
      .map((mark) => [source.slice(mark.start, mark.end), mark.time]);

  it('gives a number read as words one mark, and does not jump to a later equal word', () => {
    expect(
      found('I saw 3 dogs and three cats', 'I saw three dogs and three cats'.split(' ')),
    ).toEqual([
      ['I', 0],
      ['saw', 100],
      ['3', 200],
      ['dogs', 300],
      ['and', 400],
      ['three', 500],
      ['cats', 600],
    ]);
    expect(
      found('Pay 1,250 now', ['Pay', 'one', 'thousand', 'two', 'hundred', 'fifty', 'now']),
    ).toEqual([
      ['Pay', 0],
      ['1,250', 100],
      ['now', 600],
    ]);
  });

  it('skips a word the engine merged, and reads words across a break', () => {
    const source =
      '<speak>one<break time="1s"/>two of the <sub alias="United Nations">UN</sub>.</speak>';
    // Every word gets a mark: "the", said with "UN", between its neighbours by their letters.
    expect(found(source, ['one', 'two', 'of', 'United', 'Nations'])).toEqual([
      ['one', 0],
      ['two', 100],
      ['of', 200],
      ['the', 243],
      ['UN', 300],
    ]);
    const sentence = speechMarks(source, spoken(['one', 'two', 'of', 'United', 'Nations'])).find(
      (mark) => mark.type === 'sentence',
    );
    expect(sentence?.value).toBe('one two of the UN.');
  });
});
