/**
 * What the pipeline asks of an espeak-ng backend. Both backends speak the same input: an
 * espeak-ng SSML string built by `espeak-input.ts`, a voice name ("en-us+f3"), and the rate
 * and pitch parameters. They answer 22,050 Hz mono 16-bit PCM, as espeak-ng makes it, and,
 * when they can, word events.
 */
export interface EspeakRequest {
  /** espeak-ng voice name, with an optional +variant. */
  voice: string;
  /** SSML for espeak-ng (`<speak>…</speak>`), its text already escaped. */
  ssml: string;
  /** Words per minute, 80..450. */
  rate: number;
  /** espeak-ng pitch parameter, 0..99. */
  pitch: number;
}

export interface EspeakWord {
  /** Seconds from the start of this request's audio. */
  time: number;
  /** 0-based offset of the word in `ssml`, and its length in characters. */
  offset: number;
  length: number;
}

export interface EspeakResult {
  /** 16-bit samples (full scale 32768), kept so until something changes them (dsp.ts, `Pcm`). */
  samples: Int16Array;
  /** Word events; the native program does not report them (`wordEvents` false): none. */
  words: EspeakWord[];
}

export type BackendName = 'wasm' | 'native';

export interface EspeakBackend {
  readonly name: BackendName;
  readonly sampleRate: number;
  /** Whether its renderings carry word events (libespeak-ng, the WebAssembly build). */
  readonly wordEvents: boolean;
  /** Whether `[[…]]` in the text is read as espeak-ng phoneme mnemonics (`<phoneme>`). */
  readonly phonemeInput: boolean;
  /** Whether this backend has the language's voice file (e.g. "fr", "en-US"). */
  hasLanguage(espeakName: string): boolean;
  render(request: EspeakRequest): Promise<EspeakResult>;
  /** Installs a voice variant file (effects use custom ones). */
  installVariant(name: string, contents: string): Promise<void>;
  /** Reads a standard variant file so custom variants can build on it. */
  readVariant(name: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export const ESPEAK_SAMPLE_RATE = 22050;
