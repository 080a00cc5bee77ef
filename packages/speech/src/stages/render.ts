import type { VoiceEffect } from '@parla/contract';
import { applyGain, bleep, concat, inBreath, silence, trimSilence } from '../dsp/dsp.js';
import { resample } from '../dsp/resample.js';
import type { Sentence, SpeechPiece } from '../plan.js';
import type { VoiceLookup } from './voices.js';

/** A word or a sentence and when it is heard, in seconds from the start of the audio. */
export interface Mark {
  type: 'word' | 'sentence';
  start: number;
  end: number;
  text: string;
}

export interface RenderedSentence {
  /** PCM at the renderer's rate. */
  samples: Float32Array;
  /** Word marks, in seconds from the start of the sentence. */
  marks: Mark[];
}

/** The whole request's settings that every segment shares. */
export interface RenderSettings {
  /** Speed multiplier of the whole request. */
  rate: number;
  /** Pitch change of the whole request, in semitones. */
  pitch: number;
  effect: VoiceEffect | undefined;
}

/** Pause kept between two pieces of one sentence (e.g. around an emphasised word). */
const JOIN_GAP = 0.05;
/** Sound kept after the last word before an explicit break, and before the next word. */
const BREAK_TAIL = 0.02;
const BREAK_HEAD = 0.01;

/**
 * The render stage: a planned sentence into PCM at one rate. Speech pieces go to their
 * voice's engine (`SpeechEngine.render`); breaks, bleeps and in-breaths are made here, so
 * they are the same on every engine. Pieces are trimmed of the engine's own leading and
 * trailing silence and joined with short fixed gaps.
 */
export class Renderer {
  constructor(
    private readonly voices: VoiceLookup,
    private readonly settings: RenderSettings,
    /** The rate every piece of the request is rendered at. */
    private readonly rate: number,
  ) {}

  async sentence(sentence: Sentence, afterBreak: boolean): Promise<RenderedSentence> {
    const parts: Float32Array[] = [];
    const marks: Mark[] = [];
    let length = 0;
    const units = sentence.units;
    for (const [index, unit] of units.entries()) {
      const previous = index > 0 ? units[index - 1] : undefined;
      const next = units[index + 1];
      if (unit.kind === 'break') {
        const pause = silence(unit.seconds, this.rate);
        parts.push(pause);
        length += pause.length;
        continue;
      }
      if (unit.kind === 'bleep') {
        const tone = bleep(unit.seconds / (this.settings.rate * unit.prosody.rate), this.rate);
        applyGain(tone, unit.prosody.volume);
        parts.push(tone);
        length += tone.length;
        continue;
      }
      const piece = await this.piece(unit);
      const precededByPause = previous ? previous.kind !== 'speech' : afterBreak;
      const start = previous?.kind === 'speech' ? 0 : precededByPause ? BREAK_HEAD : undefined;
      const end = next === undefined ? undefined : next.kind === 'speech' ? JOIN_GAP : BREAK_TAIL;
      const trimmed = trimSilence(piece.samples, this.rate, {
        ...(start !== undefined && { start }),
        ...(end !== undefined && { end }),
      });
      if (piece.breaths && (previous === undefined || previous.kind === 'break')) {
        const breath = concat([inBreath(this.rate, length + 1), silence(0.08, this.rate)]);
        parts.push(breath);
        length += breath.length;
      }
      const offset = length / this.rate - trimmed.cutStart / this.rate;
      const pieceEnd = (length + trimmed.samples.length) / this.rate;
      piece.words.forEach((word, i) => {
        const following = piece.words[i + 1];
        marks.push({
          type: 'word',
          start: Math.max(length / this.rate, offset + word.time),
          end: Math.min(pieceEnd, following ? offset + following.time : pieceEnd),
          text: word.text,
        });
      });
      parts.push(trimmed.samples);
      length += trimmed.samples.length;
    }
    return { samples: concat(parts), marks };
  }

  /** One speech piece through its engine, at the renderer's rate. */
  private async piece(piece: SpeechPiece) {
    const { engine, voice } = await this.voices.forItem(piece);
    const rendered = await engine.render({
      voice,
      parts: piece.parts,
      rate: this.settings.rate * piece.prosody.rate,
      pitch: this.settings.pitch + piece.prosody.pitch,
      volume: piece.prosody.volume,
      effect: piece.effect ?? this.settings.effect,
    });
    // A voice of another engine inside the request (a `<voice>` switch) has its own rate.
    const samples = resample(rendered.samples, rendered.sampleRate, this.rate);
    return { samples, words: rendered.words, breaths: rendered.breaths };
  }
}
