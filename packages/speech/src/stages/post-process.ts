import { applyGain, softLimit } from '../dsp/dsp.js';
import { resample } from '../dsp/resample.js';
import type { Mark, RenderedSentence } from './render.js';

/** A sentence ready to encode: at the requested rate, with its marks on the request's clock. */
export interface SentenceAudio {
  /** PCM at the requested rate, master volume applied. */
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
    /** The sentence's text, for its mark ('' gives none). */
    text: string;
    last: boolean;
  },
): SentenceAudio {
  const { renderRate, sampleRate, volume, position } = options;
  // In place: the rendered samples (the same array when no resampling is needed) are not
  // used again.
  const out = resample(rendered.samples, renderRate, sampleRate);
  applyGain(out, volume);
  if (volume > 0) softLimit(out);
  const duration = out.length / sampleRate;
  const scale = rendered.samples.length > 0 ? duration / (rendered.samples.length / renderRate) : 1;
  const marks: Mark[] = rendered.marks.map((mark) => ({
    ...mark,
    start: position + mark.start * scale,
    end: position + mark.end * scale,
  }));
  if (options.text) {
    marks.unshift({
      type: 'sentence',
      start: position,
      end: position + duration,
      text: options.text,
    });
  }
  return { pcm: out, start: position, duration, marks, last: options.last };
}
