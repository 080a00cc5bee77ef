import type { VoiceEffect } from '@parla/contract';
import type { DocumentItem, TextItem } from '../document.js';
import {
  applyGain,
  bleep,
  concat,
  firstSound,
  inBreath,
  lastSound,
  type Pcm,
  silence,
  trimSilence,
} from '../dsp/dsp.js';
import { resample } from '../dsp/resample.js';
import type { EngineVoice, RenderedSegment, RunItem } from '../engines/types.js';
import type { SourcePosition } from '../errors.js';
import type { Sentence, SentenceUnit, SpeechPart, SpeechPiece } from '../plan.js';
import type { SpeechWarningCode, Warnings } from '../warnings.js';
import type { Mark, RenderedSentence } from './rendered.js';
import { type SentenceCache, sentenceKey } from './sentence-cache.js';
import type { VoiceLookup } from './voices.js';

export type { Mark, RenderedSentence } from './rendered.js';

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
    /** Sentences rendered before, by what their audio depends on (stages/sentence-cache.ts). */
    private readonly cache?: SentenceCache,
  ) {}

  /** A sentence's audio: from the sentence cache when it was rendered before, else rendered. */
  async sentence(sentence: Sentence, afterBreak: boolean): Promise<RenderedSentence> {
    const key = this.cache && (await this.keyOf(sentence, afterBreak));
    const hit = key === undefined ? undefined : this.cache?.get(key);
    if (hit) return { samples: hit.samples, marks: hit.marks };
    const rendered = await this.render(sentence, afterBreak);
    if (key !== undefined) this.cache?.set(key, rendered);
    return rendered;
  }

  /** Everything the audio of `sentence` depends on, hashed (stages/sentence-cache.ts). */
  private async keyOf(sentence: Sentence, afterBreak: boolean): Promise<string> {
    const fingerprints = new Set<string>();
    for (const unit of sentence.units) {
      if (unit.kind !== 'speech') continue;
      const { engine, voice } = await this.voices.forItem(unit);
      fingerprints.add(`${voice.id}:${await engine.fingerprint(voice.id)}`);
    }
    return sentenceKey([
      sentence.units,
      afterBreak,
      this.settings,
      this.rate,
      [...fingerprints].sort(),
    ]);
  }

  private async render(sentence: Sentence, afterBreak: boolean): Promise<RenderedSentence> {
    const parts: Pcm[] = [];
    const marks: Mark[] = [];
    let length = 0;
    const units = sentence.units;
    // A mark takes no time: the units around it are each other's neighbours.
    const neighbour = (index: number, step: 1 | -1) => {
      for (let i = index + step; i >= 0 && i < units.length; i += step) {
        if (units[i]?.kind !== 'mark') return units[i];
      }
      return undefined;
    };
    for (let index = 0; index < units.length; index++) {
      const unit = units[index] as SentenceUnit;
      const previous = neighbour(index, -1);
      if (unit.kind === 'mark') {
        const at = length / this.rate;
        marks.push({ type: 'mark', start: at, end: at, text: unit.name });
        continue;
      }
      if (unit.kind === 'breath') {
        const breath = this.breath(length);
        parts.push(breath);
        length += breath.length;
        continue;
      }
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
      // An engine that takes whole runs gets this voice's speech up to the next other sound.
      const last = await this.runEnd(units, index);
      const piece =
        last > index ? await this.run(units.slice(index, last + 1)) : await this.piece(unit);
      index = last;
      const next = neighbour(index, 1);
      const precededByPause = previous ? previous.kind !== 'speech' : afterBreak;
      const start = previous?.kind === 'speech' ? 0 : precededByPause ? BREAK_HEAD : undefined;
      const end = next === undefined ? undefined : next.kind === 'speech' ? JOIN_GAP : BREAK_TAIL;
      const trimmed = trimSilence(piece.samples, this.rate, {
        ...(start !== undefined && { start }),
        ...(end !== undefined && { end }),
      });
      if (piece.breaths && (previous === undefined || previous.kind === 'break')) {
        const breath = this.breath(length);
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
      for (const mark of piece.marks) {
        const at = Math.min(pieceEnd, Math.max(length / this.rate, offset + mark.time));
        marks.push({ type: 'mark', start: at, end: at, text: mark.name });
      }
      parts.push(trimmed.samples);
      length += trimmed.samples.length;
    }
    // Stable: a word and a mark at the same time keep their order.
    marks.sort((a, b) => a.start - b.start);
    return { samples: concat(parts), marks };
  }

  /** An in-breath and a short rest, varied by where it falls (`length` samples in). */
  private breath(length: number): Float32Array {
    return concat([inBreath(this.rate, length + 1), silence(0.08, this.rate)]);
  }

  /**
   * Where the run that starts with the speech piece at `start` ends (the index of its last
   * piece): for an engine that renders runs (`SpeechEngine.renderRun`), the following pieces
   * of the same voice and effect with only breaks and marks between them; otherwise `start`.
   */
  private async runEnd(units: readonly SentenceUnit[], start: number): Promise<number> {
    const first = units[start];
    if (first?.kind !== 'speech') return start;
    const { engine, voice } = await this.voices.forItem(first);
    if (!engine.renderRun) return start;
    const effect = first.effect ?? this.settings.effect;
    let end = start;
    for (let i = start + 1; i < units.length; i++) {
      const unit = units[i];
      if (unit?.kind === 'break' || unit?.kind === 'mark') continue;
      if (unit?.kind !== 'speech' || (unit.effect ?? this.settings.effect) !== effect) break;
      if ((await this.voices.forItem(unit)).voice.id !== voice.id) break;
      end = i;
    }
    return end;
  }

  /** A run of one voice's pieces, breaks and marks through its engine's `renderRun`. */
  private async run(units: readonly SentenceUnit[]) {
    const speech = units.filter((unit): unit is SpeechPiece => unit.kind === 'speech');
    const [first] = speech;
    if (!first) throw new Error('a run starts with speech');
    const { engine, voice } = await this.voices.forItem(first);
    const items: RunItem[] = [];
    // A mark between pieces goes before the next piece's words.
    let marks: SpeechPart[] = [];
    for (const unit of units) {
      if (unit.kind === 'mark') marks.push({ text: '', mark: unit.name });
      else if (unit.kind === 'break') items.push({ kind: 'break', seconds: unit.seconds });
      else if (unit.kind === 'speech') {
        items.push({
          kind: 'speech',
          parts: [...marks, ...this.partsFor(unit, voice)],
          rate: this.settings.rate * unit.prosody.rate,
          pitch: this.settings.pitch + unit.prosody.pitch,
          volume: unit.prosody.volume,
        });
        marks = [];
      }
    }
    const render = engine.renderRun?.bind(engine);
    if (!render) throw new Error(`${engine.id} renders no runs`);
    const rendered = await render({
      voice,
      items,
      effect: first.effect ?? this.settings.effect,
    });
    const parts = items.flatMap((item) => (item.kind === 'speech' ? item.parts : []));
    return this.placed(rendered, { ...first, parts });
  }

  /** One speech piece through its engine, at the renderer's rate. */
  private async piece(piece: SpeechPiece) {
    const { engine, voice } = await this.voices.forItem(piece);
    const rendered = await engine.render({
      voice,
      parts: this.partsFor(piece, voice),
      rate: this.settings.rate * piece.prosody.rate,
      pitch: this.settings.pitch + piece.prosody.pitch,
      volume: piece.prosody.volume,
      effect: piece.effect ?? this.settings.effect,
    });
    return this.placed(rendered, piece);
  }

  /** A rendered piece at the renderer's rate, its marks timed. */
  private placed(rendered: RenderedSegment, piece: SpeechPiece) {
    // A voice of another engine inside the request (a `<voice>` switch) has its own rate.
    const samples = resample(rendered.samples, rendered.sampleRate, this.rate);
    // An engine that does not time marks has each heard at its share of the text.
    const marks =
      rendered.marks ??
      markShares(piece).map(({ name, share }) => ({
        name,
        time: atShare(samples, this.rate, share),
      }));
    return { samples, words: rendered.words, marks, breaths: rendered.breaths };
  }

  /**
   * The parts of a piece as its voice can render them: phonemes a voice cannot read become
   * their text, emphasis a voice does not render is dropped (`capabilityWarnings` says so).
   */
  private partsFor(piece: SpeechPiece, voice: EngineVoice): readonly SpeechPart[] {
    const { capabilities } = voice;
    if (capabilities.phonemes && capabilities.emphasis) return piece.parts;
    return piece.parts.map(({ phonemes, emphasis, ...part }) => ({
      ...part,
      ...(phonemes && capabilities.phonemes && { phonemes }),
      ...(emphasis && capabilities.emphasis && { emphasis }),
    }));
  }
}

/**
 * The warnings of markup the voices of a request cannot render, each where it was typed:
 * a `<phoneme>` whose engine does not read phonemes, `<emphasis>` on a voice that does not
 * render it, an effect the voice does not have (the request's own effect has no place).
 * Found before rendering, so that they do not depend on which sentences the cache had.
 */
export async function capabilityWarnings(
  items: readonly DocumentItem[],
  voices: VoiceLookup,
  effect: VoiceEffect | undefined,
  warnings: Warnings,
): Promise<void> {
  const once = new Set<string>();
  const warnOnce = (code: SpeechWarningCode, message: string, at?: SourcePosition) => {
    if (once.has(message)) return;
    once.add(message);
    warnings.add(code, message, at);
  };
  for (const item of items) {
    if (item.kind !== 'text') continue;
    const { voice } = await voices.forItem(item);
    const { capabilities } = voice;
    const wanted = item.effect ?? effect;
    if (wanted && !capabilities.effects.includes(wanted)) {
      warnOnce(
        'effect_not_available',
        `The ${wanted} effect is not available for ${voice.name} (${capabilities.engineName}); it is ignored`,
        item.effect ? item.markupAt?.effect : undefined,
      );
    }
    if (item.phonemes && !capabilities.phonemes) {
      // Each <phoneme> where it is: the same one twice is two places to change.
      warnings.add(
        'phoneme_not_spoken',
        `<phoneme ${item.phonemes.source}>: ${capabilities.engineName} cannot read phonemes; "${item.text.trim()}" is read instead`,
        item.source,
      );
    }
    if (item.emphasis && !capabilities.emphasis) {
      warnOnce(
        'emphasis_not_rendered',
        `<emphasis>: ${capabilities.engineName} does not render emphasis; "${item.text.trim()}" is read plainly`,
        item.markupAt?.emphasis,
      );
    }
  }
  await prosodyWarnings(items, voices, warnings);
}

/**
 * The `prosody_approximated` warnings: a voice whose engine sends whole texts (`renderRun`) but
 * takes no `<prosody>` in them (plain text) reads each stretch between pauses at one speed,
 * pitch and volume, those of most of its text; each text in another prosody is warned of,
 * where its `<prosody>` opened (docs/decisions/033-whole-ssml-to-remote-voices.md).
 */
async function prosodyWarnings(
  items: readonly DocumentItem[],
  voices: VoiceLookup,
  warnings: Warnings,
): Promise<void> {
  type Entry = { item: TextItem; voice: EngineVoice; plain: boolean };
  const key = (item: TextItem) =>
    `${item.prosody.rate}|${item.prosody.pitch}|${item.prosody.volume}`;
  let stretch: Entry[] = [];
  const settle = () => {
    const [first] = stretch;
    if (first?.plain) {
      const shares = new Map<string, number>();
      for (const { item } of stretch) {
        shares.set(key(item), (shares.get(key(item)) ?? 0) + item.text.trim().length);
      }
      const most = [...shares.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      for (const { item, voice } of stretch) {
        if (key(item) === most || item.text.trim() === '') continue;
        const text = item.text.trim();
        const quoted = text.length > 40 ? `${text.slice(0, 39)}…` : text;
        warnings.add(
          'prosody_approximated',
          `<prosody>: ${voice.capabilities.engineName} reads a text at one speed, pitch and volume; "${quoted}" is read like the text around it`,
          item.markupAt?.prosody ?? item.source,
        );
      }
    }
    stretch = [];
  };
  for (const item of items) {
    if (item.kind === 'break' || item.kind === 'bleep' || item.kind === 'breath') settle();
    if (item.kind !== 'text') continue;
    const { engine, voice } = await voices.forItem(item);
    if (stretch[0] && stretch[0].voice.id !== voice.id) settle();
    const plain =
      engine.renderRun !== undefined && !voice.capabilities.nativeSsml.includes('prosody');
    stretch.push({ item, voice, plain });
  }
  settle();
}

/** Each `<mark>` inside a piece, with the share of the piece's text before it. */
function markShares(piece: SpeechPiece): { name: string; share: number }[] {
  const total = piece.parts.reduce((sum, part) => sum + part.text.length, 0) || 1;
  let before = 0;
  const shares: { name: string; share: number }[] = [];
  for (const part of piece.parts) {
    if (part.mark !== undefined) shares.push({ name: part.mark, share: before / total });
    before += part.text.length;
  }
  return shares;
}

/** Seconds into a sound at a share of its length, from its first to its last sound. */
function atShare(samples: Pcm, rate: number, share: number): number {
  const from = firstSound(samples) / rate;
  const to = Math.max(from, lastSound(samples) / rate);
  return from + (to - from) * share;
}
