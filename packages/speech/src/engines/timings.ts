import { firstSound, lastSound } from '../dsp/dsp.js';
import { referenceTimings } from './espeak/index.js';
import type { RenderedSegment, Segment } from './types.js';

/**
 * Word and mark times for audio whose engine reports none (Piper, OpenAI-compatible servers,
 * Azure's REST answer): espeak-ng's WebAssembly build says the same parts at `speed` and its
 * times are stretched onto the audio (docs/decisions/019-speech-marks.md); where espeak-ng
 * lacks the language, each word gets its share of the sound.
 */
export async function estimatedTimings(
  segment: Pick<Segment, 'parts' | 'voice'>,
  text: string,
  speed: number,
  samples: Float32Array,
  sampleRate: number,
): Promise<Pick<RenderedSegment, 'words' | 'marks'>> {
  const reference = await referenceTimings(
    segment.parts,
    segment.voice.language,
    speed,
    samples,
    sampleRate,
  );
  return reference ?? { words: spreadWords(text, samples, sampleRate) };
}

/** Word marks for audio without word timings: each word gets a share of the sound. */
function spreadWords(
  text: string,
  samples: Float32Array,
  rate: number,
): { time: number; text: string }[] {
  const words = text.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0 || samples.length === 0) return [];
  const from = firstSound(samples) / rate;
  const to = Math.max(from, lastSound(samples) / rate);
  const total = words.reduce((sum, w) => sum + w.length + 1, 0);
  let done = 0;
  return words.map((word) => {
    const time = from + ((to - from) * done) / total;
    done += word.length + 1;
    return { time, text: word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '') };
  });
}
