import { applyGain, softLimit } from '../dsp/dsp.js';
import { resampleTransient } from '../dsp/resample.js';
import { sentenceFirstWords } from '../marks.js';
import type { Mark, RenderedSentence } from './render.js';

/** A sentence ready to encode: at the requested rate, with its marks on the request's clock. */
export interface SentenceAudio {
  /**
   * PCM at the requested rate, master volume applied: when resampled, a view into the
   * resampler's memory (`resampleTransient`), to be encoded before anything else runs on this
   * thread (synthesize.ts), or copied.
   */
  pcm: Float32Array;
  /** Seconds from the start of the audio. */
  start: number;
  duration: number;
  marks: Mark[];
  last: boolean;
}

/**
 * The post-process stage (DSP): a rendered sentence to the requested rate (band-limited
 * resampler), the master volume and, when it raises the level, a soft limiter after the
 * resampler so that its overshoot is caught too. Word marks move to the request's clock and
 * the sentence gets its own mark.
 */
export function postProcess(
  rendered: RenderedSentence,
  options: {
    renderRate: number;
    sampleRate: number;
    /** dB */
    volume: number;
    /** Where the sentence starts, in seconds from the start of the audio. */
    position: number;
    /**
     * The text of each sentence rendered here (several for a group, plan.ts), for their marks;
     * an empty text gives none.
     */
    texts: readonly string[];
    last: boolean;
  },
): SentenceAudio {
  const { renderRate, sampleRate, volume, position } = options;
  // In place: the rendered samples (the same array when no resampling is needed) are not
  // used again, nor is the resampler's memory before the encoder has read it.
  const out = resampleTransient(rendered.samples, renderRate, sampleRate);
  applyGain(out, volume);
  if (volume > 0) softLimit(out);
  const duration = out.length / sampleRate;
  const scale = rendered.samples.length > 0 ? duration / (rendered.samples.length / renderRate) : 1;
  const marks: Mark[] = rendered.marks.map((mark) => ({
    ...mark,
    start: position + mark.start * scale,
    end: position + mark.end * scale,
  }));
  // Each sentence of a group starts with its first word (docs/decisions/029-sentence-marks-and-cues.md).
  const texts = options.texts;
  const words = marks.filter((mark) => mark.type === 'word');
  const firsts =
    texts.length > 1
      ? sentenceFirstWords(
          texts,
          words.map((word) => word.text),
        )
      : [];
  const starts: number[] = [];
  texts.forEach((_, index) => {
    const first = words[firsts[index] ?? -1];
    starts.push(Math.max(starts.at(-1) ?? position, index === 0 ? position : (first?.start ?? 0)));
  });
  const sentences: Mark[] = texts.flatMap((text, index) =>
    text
      ? [
          {
            type: 'sentence' as const,
            start: starts[index] ?? position,
            end: starts[index + 1] ?? position + duration,
            text,
          },
        ]
      : [],
  );
  // Stable: each sentence before the words heard from its start on.
  marks.unshift(...sentences);
  marks.sort((a, b) => a.start - b.start);
  return { pcm: out, start: position, duration, marks, last: options.last };
}
