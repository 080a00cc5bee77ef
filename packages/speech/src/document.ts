import type { EmphasisLevel, SayAsType, VoiceEffect } from '@parla/contract';
import type { SourcePosition } from './errors.js';

/**
 * The parsed form of a text: a flat list of items, in reading order. Nesting is resolved at
 * parse time, so every text span carries the full prosody/voice/effect that applies to it.
 * This keeps rendering and sentence splitting free of tree walking.
 */

/** Relative prosody, composed from nested `<prosody>` elements (not the master sliders). */
export interface Prosody {
  /** Speaking-rate multiplier (1 = unchanged). */
  rate: number;
  /** Pitch offset in semitones (0 = unchanged). */
  pitch: number;
  /** Gain in dB (0 = unchanged). */
  volume: number;
}

export const NEUTRAL_PROSODY: Prosody = Object.freeze({ rate: 1, pitch: 0, volume: 0 });

export interface SayAs {
  interpretAs: SayAsType;
  format?: string;
  detail?: string;
}

export interface TextItem {
  kind: 'text';
  text: string;
  /** Voice id from `<voice name>`; undefined means the request's voice. */
  voice?: string;
  /** Language from `<voice language>` or `xml:lang`; undefined means the voice's language. */
  language?: string;
  prosody: Prosody;
  emphasis?: EmphasisLevel;
  effect?: VoiceEffect;
  sayAs?: SayAs;
  /** Set by normalisation: speak the text letter by letter. */
  spell?: boolean;
  source: SourcePosition;
}

export interface BreakItem {
  kind: 'break';
  seconds: number;
}

/** A tone that replaces a word (say-as expletive). */
export interface BleepItem {
  kind: 'bleep';
  seconds: number;
  prosody: Prosody;
}

/** An explicit structural boundary from `<s>` or `<p>`. */
export interface BoundaryItem {
  kind: 'boundary';
  level: 'sentence' | 'paragraph';
}

export type DocumentItem = TextItem | BreakItem | BleepItem | BoundaryItem;

export interface SpeechDocument {
  items: DocumentItem[];
}
