import type { Language } from '@parla/contract';
import type { BackendChoice } from '../engines/espeak/backends.js';
import type { SerializedSpeechError } from '../errors.js';
import type { SynthesisChunk, SynthesisRequest, SynthesisResult } from '../synthesize.js';

/** Messages between the pool (main thread) and its workers. */

export type WorkerJob =
  | {
      id: number;
      kind: 'synthesize' | 'stream';
      request: SynthesisRequest;
      backend: BackendChoice;
      voicesDir: string | undefined;
    }
  | { id: number; kind: 'voices'; voicesDir: string | undefined };

export type WorkerReply =
  | { id: number; kind: 'result'; result: SynthesisResult }
  | { id: number; kind: 'chunk'; chunk: SynthesisChunk }
  | { id: number; kind: 'done' }
  | { id: number; kind: 'voices'; voices: Language[] }
  | { id: number; kind: 'error'; error: SerializedSpeechError };
