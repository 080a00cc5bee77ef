import type { EmphasisLevel, SayAsType, VoiceEffect } from '@parla/contract';
import type { SourcePosition } from './errors.js';
import type { SpeechWarning } from './warnings.js';

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

/** Pronunciation from `<phoneme>`, in espeak-ng's phoneme mnemonics (see ssml/phonemes.ts). */
export interface Phonemes {
  /** What was written, for messages: `alphabet="ipa" ph="təˈmeɪtoʊ"`. */
  source: string;
  /** The same in espeak-ng's mnemonics, spoken as `[[…]]` where the engine reads them. */
  espeak: string;
  /** The same in IPA (X-SAMPA converted), for engines that take SSML `<phoneme>`. */
  ipa: string;
}

export type VoiceGender = 'male' | 'female' | 'neutral';

export interface TextItem {
  kind: 'text';
  text: string;
  /** Voice id from `<voice name>`; undefined means the request's voice. */
  voice?: string;
  /** Language from `<voice language>`, `<lang>` or `xml:lang`; undefined: the voice's. */
  language?: string;
  /** Gender from `<voice gender>`: a voice of that gender in the language. */
  gender?: VoiceGender;
  prosody: Prosody;
  emphasis?: EmphasisLevel;
  effect?: VoiceEffect;
  sayAs?: SayAs;
  /** Set by normalisation: speak the text letter by letter. */
  spell?: boolean;
  /** `<phoneme>`: how to say `text`, where the engine reads phonemes. */
  phonemes?: Phonemes;
  source: SourcePosition;
  /**
   * The `xml:id`s of the `<lookup ref>` elements around the text, innermost first: their
   * lexicons come before every other (ssml/parser.ts, lexicons/apply.ts).
   */
  lookup?: string[];
  /** Where the element that set its voice, emphasis, effect or prosody opened, for warnings. */
  markupAt?: Partial<Record<'voice' | 'emphasis' | 'effect' | 'prosody', SourcePosition>>;
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

/** `<mark name>`: reported in the result's marks at the time it is reached. */
export interface MarkItem {
  kind: 'mark';
  name: string;
}

/** An audible in-breath (Polly's `<amazon:breath>`). */
export interface BreathItem {
  kind: 'breath';
}

export type DocumentItem = TextItem | BreakItem | BleepItem | BoundaryItem | MarkItem | BreathItem;

export interface SpeechDocument {
  items: DocumentItem[];
  /** Characters of the text as given: what the request pays for, and what bounds its cost. */
  sourceLength: number;
  /** Markup that was understood but not (fully) rendered, for the caller to show. */
  warnings: SpeechWarning[];
  /** SSML 1.1 `<lexicon uri xml:id>` declarations, in document order. */
  lexicons?: LexiconDeclaration[];
}

/** A `<lexicon>` of the SSML: the lexicon its `uri` names is applied to the document. */
export interface LexiconDeclaration {
  id: string;
  uri: string;
  at: SourcePosition;
}
