import type { Language } from '@parla/contract';
import { SpeechPool, type SynthesisRequest, type SynthesisResult } from '@parla/speech';

/** What the server needs of the speech engine; one instance per process. */
export interface SpeechService {
  listVoices(): Promise<Language[]>;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  close(): Promise<void>;
}

export interface SpeechServiceOptions {
  /** Content-addressed cache of rendered audio: a repeated request is not synthesised again. */
  cacheDir: string;
  /** Worker threads; default: one per available core. */
  workers?: number;
}

/**
 * Synthesis off the event loop (issue 3, item 8): a worker-thread pool renders every request and
 * loads the voice catalogue, so the HTTP server answers other requests while all workers work.
 */
export function createSpeechService({ cacheDir, workers }: SpeechServiceOptions): SpeechService {
  const pool = new SpeechPool({ cacheDir, ...(workers !== undefined && { size: workers }) });
  return {
    listVoices: () => pool.listVoices(),
    synthesize: (request) => pool.synthesize(request),
    close: () => pool.close(),
  };
}
