import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { RenderedSentence } from './rendered.js';

/**
 * Rendered sentences kept for the next request (issue 14, item 4): re-converting a text after
 * editing one sentence renders only the sentences that changed. A sentence's key is everything
 * its audio depends on — its units (text, voice, prosody, effect, breaks, marks), whether it
 * follows a break, the request's speed, pitch and effect, the rate it is rendered at, and the
 * fingerprint of each engine voice it uses (model file, engine version) — so a hit is the
 * audio the engine would make again. Held in memory, bounded by bytes, least recently used
 * first out; one per thread that renders.
 */
export interface SentenceCache {
  get(key: string): CachedSentence | undefined;
  set(key: string, value: CachedSentence): void;
}

/** A rendered sentence (its warnings are found before rendering, render.ts). */
export type CachedSentence = RenderedSentence;

/** Default bound: about 6 minutes of 22 kHz audio per thread as floats, 12 as 16-bit samples. */
export const SENTENCE_CACHE_BYTES = 32 * 1024 * 1024;

export function createSentenceCache(maxBytes = SENTENCE_CACHE_BYTES): SentenceCache {
  const cache = new LRUCache<string, CachedSentence>({
    maxSize: maxBytes,
    sizeCalculation: (value) => value.samples.byteLength + 64 * (value.marks.length + 1),
  });
  return {
    // Copies both ways: the pipeline scales and trims samples in place.
    get(key) {
      const hit = cache.get(key);
      return (
        hit && { ...hit, samples: hit.samples.slice(), marks: hit.marks.map((m) => ({ ...m })) }
      );
    },
    set(key, value) {
      if (value.samples.byteLength > maxBytes) return;
      cache.set(key, { ...value, samples: value.samples.slice() });
    },
  };
}

/** The key of a sentence's audio from what it depends on (see SentenceCache). */
export function sentenceKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
