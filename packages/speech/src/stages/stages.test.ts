import { describe, expect, it } from 'vitest';
import { decode, decodeWav, rmsDb } from '../../test/audio.js';
import { firstSecondAhead, WholeFileEncoder } from './encode.js';
import { postProcess } from './post-process.js';

const tone = (seconds: number, rate: number, amplitude = 0.5) =>
  Float32Array.from(
    { length: Math.round(seconds * rate) },
    (_, i) => Math.sin((2 * Math.PI * 220 * i) / rate) * amplitude,
  );

describe('the post-process stage', () => {
  it('resamples, applies the volume and moves the marks to the request clock', () => {
    const rendered = {
      samples: tone(1, 22050),
      marks: [{ type: 'word' as const, start: 0.25, end: 0.5, text: 'two' }],
    };
    const out = postProcess(rendered, {
      renderRate: 22050,
      sampleRate: 16000,
      volume: -6,
      position: 2,
      texts: ['One two.'],
      last: true,
    });
    expect(out.pcm.length).toBe(16000);
    expect(out.duration).toBeCloseTo(1, 3);
    expect(rmsDb(out.pcm) - rmsDb(tone(1, 16000))).toBeCloseTo(-6, 0);
    expect(out.marks).toEqual([
      { type: 'sentence', start: 2, end: 3, text: 'One two.' },
      { type: 'word', start: 2.25, end: 2.5, text: 'two' },
    ]);
  });

  it('gives each sentence of a group its own mark, from its first word (issue 27)', () => {
    const spoken = ['It', 'was', 'cold', 'The', 'cows', 'waited', 'Was', 'it', 'late'];
    const out = postProcess(
      {
        samples: tone(3, 16000),
        marks: spoken.map((text, i) => ({
          type: 'word' as const,
          start: i / 3,
          end: (i + 1) / 3,
          text,
        })),
      },
      {
        renderRate: 16000,
        sampleRate: 16000,
        volume: 0,
        position: 10,
        // espeak-ng said "a" with "cold": the words heard are not all the words written.
        texts: ['It was a cold day.', 'The cows waited.', 'Was it late?'],
        last: true,
      },
    );
    const sentences = out.marks.filter((mark) => mark.type === 'sentence');
    expect(sentences.map((m) => [m.text, m.start, m.end])).toEqual([
      ['It was a cold day.', 10, 11],
      ['The cows waited.', 11, 12],
      ['Was it late?', 12, 13],
    ]);
    // Each sentence comes before its words.
    expect(out.marks.map((mark) => mark.text).slice(0, 5)).toEqual([
      'It was a cold day.',
      'It',
      'was',
      'cold',
      'The cows waited.',
    ]);
  });

  it('keeps a raised level below full scale', () => {
    const out = postProcess(
      { samples: tone(0.5, 16000, 0.9), marks: [] },
      { renderRate: 16000, sampleRate: 16000, volume: 20, position: 0, texts: [''], last: true },
    );
    expect(Math.max(...out.pcm.map(Math.abs))).toBeLessThan(1);
    expect(out.marks).toEqual([]);
  });
});

describe('the encode stage', () => {
  it('sends the first second of a long first sentence ahead, with its marks', () => {
    const sentence = {
      pcm: tone(3, 16000),
      start: 0,
      duration: 3,
      marks: [
        { type: 'word' as const, start: 0.5, end: 0.9, text: 'a' },
        { type: 'word' as const, start: 1.5, end: 2, text: 'b' },
      ],
      last: true,
    };
    const [first, rest] = firstSecondAhead(sentence, 16000);
    expect(first).toMatchObject({ start: 0, duration: 1, last: false });
    expect(first?.marks.map((m) => m.text)).toEqual(['a']);
    expect(rest).toMatchObject({ start: 1, duration: 2, last: true });
    expect(rest?.marks.map((m) => m.text)).toEqual(['b']);
    // A short sentence goes whole.
    expect(firstSecondAhead({ ...sentence, pcm: tone(1.5, 16000) }, 16000)).toHaveLength(1);
  });

  it('encodes a whole file that decodes to the same length', async () => {
    const parts = [tone(0.5, 24000), tone(0.25, 24000)];
    const encodeWhole = async (format: 'wav' | 'ogg') => {
      const encoder = await WholeFileEncoder.create(format, 24000);
      for (const part of parts) encoder.add(part);
      return encoder.finish();
    };
    const wav = await encodeWhole('wav');
    expect(wav.samples).toBe(18000);
    expect(decodeWav(wav.audio).samples.length).toBe(18000);
    const ogg = await encodeWhole('ogg');
    const decoded = await decode('ogg', ogg.audio);
    expect(decoded.sampleRate).toBe(24000);
    expect(Math.abs(decoded.samples.length - 18000)).toBeLessThan(2400);
  });
});
