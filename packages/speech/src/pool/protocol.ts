import type { Language } from '@parla/contract';
import type { SpeechConfig } from '../engines/registry.js';
import type { SerializedSpeechError } from '../errors.js';
import type { CheckedRequest } from '../request.js';
import type { SynthesisChunk, SynthesisResult } from '../synthesize.js';

/** Messages between the pool (main thread) and its workers. */

export type WorkerJob =
  /** A request as `checkRequest` answered it on the pool's thread: not checked again. */
  | { id: number; kind: 'synthesize' | 'stream'; request: CheckedRequest; config: SpeechConfig }
  | { id: number; kind: 'voices'; config: SpeechConfig };

/**
 * What the pool tells a worker outside any job: `end` (close its engines and end the thread
 * once the job in hand, if any, reaches its next step), `crash` (end as an uncaught error
 * would: failure drills). A thread ends itself rather than being terminated mid-call: a native
 * library called through koffi while its thread is terminated can abort the whole process
 * (docs/decisions/059-a-worker-thread-ends-itself.md).
 */
export type WorkerCommand = { kind: 'end' } | { kind: 'crash' };

export type WorkerReply =
  | { id: number; kind: 'result'; result: SynthesisResult }
  | { id: number; kind: 'chunk'; chunk: SynthesisChunk }
  | { id: number; kind: 'done' }
  | { id: number; kind: 'voices'; voices: Language[] }
  | { id: number; kind: 'error'; error: SerializedSpeechError };
