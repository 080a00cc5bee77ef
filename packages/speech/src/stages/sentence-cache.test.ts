import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../test/audio.js';
import { request } from '../../test/request.js';
import { synthesize } from '../synthesize.js';
import { type CachedSentence, createSentenceCache, type SentenceCache } from './sentence-cache.js';

const SENTENCES = [
  'The first sentence stays as it was.',
  'The second sentence is the one that changes.',
  'The third sentence stays too.',
];

/** The real cache, counting what it answered. */
function countingCache(): SentenceCache & { hits: number; misses: number } {
  const cache = createSentenceCache();
  const counted = {
    hits: 0,
    misses: 0,
    get(key: string) {
      const found = cache.get(key);
      if (found) counted.hits += 1;
      else counted.misses += 1;
      return found;
    },
    set: (key: string, value: CachedSentence) => cache.set(key, value),
  };
  return counted;
}

const say = (text: string, sentenceCache?: SentenceCache, speed = 0) =>
  synthesize(request({ text, master_speed: speed }), {
    espeak: { backend: 'wasm' },
    ...(sentenceCache && { sentenceCache }),
  });

describe('the sentence cache', () => {
  it('renders only the edited sentence again, and the audio is what a full render makes', async () => {
    const cache = countingCache();
    await say(SENTENCES.join(' '), cache);
    expect(cache).toMatchObject({ hits: 0, misses: 3 });

    const edited = [SENTENCES[0], 'The second sentence now says something else.', SENTENCES[2]];
    const cached = await say(edited.join(' '), cache);
    expect(cache).toMatchObject({ hits: 2, misses: 4 });

    // What a full render makes: the same words at about the same times, the same length.
    // (espeak-ng's output varies by a few samples from one run to the next, so not to the byte.)
    const fresh = await say(edited.join(' '));
    const words = (result: typeof fresh) =>
      result.marks.filter((m) => m.type === 'word').map((m) => m.text);
    expect(words(cached)).toEqual(words(fresh));
    expect(words(cached)).toContain('else');
    const seconds = (result: typeof fresh) => decodeWav(result.audio).samples.length / 16000;
    expect(Math.abs(seconds(cached) - seconds(fresh))).toBeLessThan(0.05);
    const starts = (result: typeof fresh) =>
      result.marks.filter((m) => m.type === 'word').map((m) => m.start);
    const freshStarts = starts(fresh);
    for (const [i, start] of starts(cached).entries()) {
      expect(Math.abs(start - (freshStarts[i] ?? 0))).toBeLessThan(0.05);
    }
  });

  it('renders again what the voice settings change', async () => {
    const cache = countingCache();
    await say(SENTENCES[0] ?? '', cache);
    await say(SENTENCES[0] ?? '', cache, 40);
    expect(cache).toMatchObject({ hits: 0, misses: 2 });
    await say(SENTENCES[0] ?? '', cache, 40);
    expect(cache).toMatchObject({ hits: 1, misses: 2 });
  });

  it('keeps what it holds apart from what callers change, and within its bound', async () => {
    const cache = createSentenceCache(1024);
    const samples = new Float32Array([0.5, -0.5]);
    cache.set('a', { samples, marks: [] });
    samples[0] = 0;
    const first = cache.get('a');
    expect(first?.samples[0]).toBe(0.5);
    if (first) first.samples[1] = 0;
    expect(cache.get('a')?.samples[1]).toBe(-0.5);
    // A sentence larger than the whole bound is not kept.
    cache.set('big', { samples: new Float32Array(1024), marks: [] });
    expect(cache.get('big')).toBeUndefined();
  });
});
