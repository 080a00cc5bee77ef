import type { Pcm } from '../dsp/dsp.js';

/**
 * What the render stage makes, in a module of its own: the sentence cache (sentence-cache.ts)
 * stores it and render.ts uses the cache, so neither imports the other for it.
 */

/**
 * A word, a sentence or an SSML `<mark name>` (its name in `text`; `start` = `end`) and when
 * it is heard, in seconds from the start of the audio.
 */
export interface Mark {
  type: 'word' | 'sentence' | 'mark';
  start: number;
  end: number;
  text: string;
}

export interface RenderedSentence {
  /** PCM at the renderer's rate (floats, or 16-bit as an engine made it: dsp.ts, `Pcm`). */
  samples: Pcm;
  /** Word marks, in seconds from the start of the sentence. */
  marks: Mark[];
}
