import type { Language } from '@parla/contract';
import { listVoices, type SynthesisRequest, type SynthesisResult, synthesize } from '@parla/speech';

/** What the server needs of the speech engine; one instance per process. */
export interface SpeechService {
  listVoices(): Promise<Language[]>;
  synthesize(request: SynthesisRequest): Promise<SynthesisResult>;
  close(): Promise<void>;
}

export function createSpeechService(): SpeechService {
  return {
    listVoices,
    synthesize: (request) => synthesize(request),
    close: async () => {},
  };
}
