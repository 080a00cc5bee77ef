import type { AudioFormat } from '@parla/contract';
import { pcm16 } from '../dsp/kernel.js';
import { joinBytes } from '../encode/bytes.js';
import { createStreamEncoder, type StreamEncoder, wavHeader } from '../encode/encoders.js';
import type { SentenceAudio } from './post-process.js';

/**
 * Seconds of the first sentence sent ahead of the rest of it: the mp3 encoder (LAME in
 * WebAssembly, about 140 times real time at 48 kHz) would otherwise hold the first bytes back
 * for as long as it takes to encode the whole sentence.
 */
const FIRST_CHUNK_SECONDS = 1;

/** The first sentence as its first second and the rest, each with the marks that start in it. */
export function firstSecondAhead(sentence: SentenceAudio, sampleRate: number): SentenceAudio[] {
  const cut = Math.round(FIRST_CHUNK_SECONDS * sampleRate);
  if (sentence.pcm.length <= 2 * cut) return [sentence];
  const boundary = sentence.start + cut / sampleRate;
  return [
    {
      pcm: sentence.pcm.subarray(0, cut),
      start: sentence.start,
      duration: cut / sampleRate,
      marks: sentence.marks.filter((mark) => mark.start < boundary),
      last: false,
    },
    {
      pcm: sentence.pcm.subarray(cut),
      start: boundary,
      duration: sentence.duration - cut / sampleRate,
      marks: sentence.marks.filter((mark) => mark.start >= boundary),
      last: sentence.last,
    },
  ];
}

/**
 * The encode stage for a whole file, fed sentence by sentence so that only encoded bytes are
 * held. A WAV's header, with exact sizes, is put in front once the length is known.
 */
export class WholeFileEncoder {
  private readonly bytes: Uint8Array[] = [];
  private samples = 0;

  private constructor(
    private readonly sampleRate: number,
    private readonly encoder: StreamEncoder | undefined,
  ) {}

  static async create(format: AudioFormat, sampleRate: number): Promise<WholeFileEncoder> {
    const encoder = format === 'wav' ? undefined : await createStreamEncoder(format, sampleRate);
    return new WholeFileEncoder(sampleRate, encoder);
  }

  add(pcm: Float32Array): void {
    this.bytes.push(this.encoder ? this.encoder.encode(pcm) : pcm16(pcm));
    this.samples += pcm.length;
  }

  finish(): { audio: Uint8Array; samples: number } {
    const parts = this.encoder
      ? [...this.bytes, this.encoder.finish()]
      : [wavHeader(this.sampleRate, this.samples * 2), ...this.bytes];
    return { audio: joinBytes(...parts), samples: this.samples };
  }
}
