import type { VoiceEffect } from '@parla/contract';
import type { Pcm } from '../dsp/dsp.js';
import type { SpeechPart } from '../plan.js';
import type { ProviderStatus } from './remote/provider.js';

/**
 * What the pipeline asks of a speech engine (docs/decisions/007-speech-engine-interface.md).
 * An engine lives in `src/engines/<name>/`, its `index.ts` exports a factory taking explicit
 * configuration, and `registry.ts` has one line for it. The pipeline (synthesize.ts) names no
 * engine: it finds the request's engine in the registry, asks it for voices and renders each
 * segment through `render`.
 */

/** What a voice can do, as the catalogue and the editor show it. */
export interface EngineCapabilities {
  /** The pitch slider and `<prosody pitch>` change this voice. */
  pitch: boolean;
  /** `<emphasis>` changes this voice. */
  emphasis: boolean;
  /** The speed slider and `<prosody rate>` change this voice. */
  rate: boolean;
  /** The voice effects this voice really renders (a test proves each changes the audio). */
  effects: readonly VoiceEffect[];
  /** SSML elements the engine reads itself (the rest is done by the pipeline). */
  nativeSsml: readonly string[];
  /** The engine reports when each word is heard (otherwise they are spread over the sound). */
  wordTimings: boolean;
  /**
   * `<phoneme>` is spoken from its phonemes; otherwise the pipeline gives the engine the
   * element's text and a warning naming `engineName`.
   */
  phonemes: boolean;
  /** How a warning names what renders the voice, e.g. "the WebAssembly build of espeak-ng". */
  engineName: string;
  /** Characters of text one `render` call accepts at most. */
  maxTextPerCall: number;
}

export interface EngineVoice {
  /** `<engine>:<voice>`, e.g. `standard:en-us+f2`; stable, stored in saved settings. */
  id: string;
  /** For people: "English (US) – Female 2". */
  name: string;
  gender: 'male' | 'female' | 'neutral';
  /** BCP-47 code of the language as the engine knows it, e.g. `en-us`, `cmn`. */
  language: string;
  languageName: string;
  capabilities: EngineCapabilities;
  /** Who renders it: `espeak-ng`, `piper`, `polly`, `azure`, `openai`. */
  provider: string;
  /** False while its provider is failing (remote voices only; listed, marked unavailable). */
  available?: boolean;
}

/** One run of text in one voice with one prosody: what `render` is given. */
export interface Segment {
  voice: EngineVoice;
  parts: readonly SpeechPart[];
  /** Speed multiplier (1 is the voice's normal rate). */
  rate: number;
  /** Pitch change in semitones. */
  pitch: number;
  /** Gain in dB. */
  volume: number;
  effect: VoiceEffect | undefined;
}

/**
 * One item of a run: speech in its own prosody, or a pause the writer asked for (seconds).
 * Rate, pitch and volume are as in `Segment`.
 */
export type RunItem =
  | { kind: 'speech'; parts: readonly SpeechPart[]; rate: number; pitch: number; volume: number }
  | { kind: 'break'; seconds: number };

/**
 * Consecutive speech of one voice and effect, with the pauses and marks between its pieces:
 * what an engine that takes whole texts (a remote provider) is given, so that it sends them in
 * as few calls as its limits allow (docs/decisions/033-whole-ssml-to-remote-voices.md). It
 * starts and ends with speech.
 */
export interface Run {
  voice: EngineVoice;
  items: readonly RunItem[];
  effect: VoiceEffect | undefined;
}

/** A segment as a run of one piece of speech, for an engine that renders runs. */
export function runOfSegment(segment: Segment): Run {
  const { voice, effect, parts, rate, pitch, volume } = segment;
  return { voice, effect, items: [{ kind: 'speech', parts, rate, pitch, volume }] };
}

export interface RenderedSegment {
  /** Mono PCM at `sampleRate`: floats in -1..1, or 16-bit samples (espeak-ng's, dsp.ts). */
  samples: Pcm;
  sampleRate: number;
  /** When each word starts, in seconds from the start of `samples`, in order. */
  words: { time: number; text: string }[];
  /**
   * When each `<mark>` among the parts is heard, in seconds from the start of `samples`; an
   * engine that leaves it out has each placed at its share of the text.
   */
  marks?: { time: number; name: string }[];
  /** The effect wants an audible in-breath before this segment when it follows a pause. */
  breaths: boolean;
}

export interface SpeechEngine {
  /** The engine's id, the prefix of its voice ids (`standard`, `neural`). */
  readonly id: string;
  /**
   * True for an engine that computes on this machine's CPU (rendered in a worker thread);
   * false for an I/O-bound remote engine, rendered on the calling thread with its own
   * concurrency bound so that it never holds a CPU worker.
   */
  readonly local: boolean;
  /** Every voice the engine offers (hidden languages excluded). */
  voices(): Promise<EngineVoice[]>;
  /** A voice by id (case-insensitive language part), or undefined. */
  resolve(id: string): Promise<EngineVoice | undefined>;
  /** The engine's voice for a language switch (`<voice language>`), same gender if it can. */
  voiceForLanguage(language: string, gender: 'male' | 'female'): Promise<EngineVoice | undefined>;
  /** The rate `render` answers for this voice. */
  sampleRate(voice: EngineVoice): Promise<number>;
  /**
   * Changes whenever the audio of an unchanged request would: the engine's version, its
   * backend, the model file of the voice, settings that change audio. Part of the cache key;
   * computed on the pool's thread, so it must not load the engine.
   */
  fingerprint(voiceId: string): Promise<string>;
  render(segment: Segment): Promise<RenderedSegment>;
  /**
   * A run of one voice in as few provider calls as its limits allow, prosody changes and
   * pauses said in the provider's own terms. An engine with it is given every stretch of its
   * voices this way (and groups of sentences up to `maxTextPerCall`); one without it is given
   * each piece of one prosody through `render`.
   */
  renderRun?(run: Run): Promise<RenderedSegment>;
  /**
   * True when `render` works outside the calling thread (another process, another machine):
   * the pipeline then renders groups of sentences, two ahead of the one being encoded.
   */
  rendersOffThread(): Promise<boolean>;
  /** How a remote engine's provider is doing (for /api/ready); local engines have none. */
  status?(): ProviderStatus;
  close(): Promise<void>;
}
