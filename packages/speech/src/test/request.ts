import { VOICE_SETTINGS_DEFAULTS } from '@parla/contract';
import type { SynthesisRequest } from '../synthesize.js';

/** A legal standard-engine request (American English, wav 16 kHz) with the given overrides. */
export function request(overrides: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return {
    ...VOICE_SETTINGS_DEFAULTS,
    engine: 'standard',
    voice_id: 'standard:en-us',
    language_code: 'en-us',
    text: 'Hello there.',
    output_format: 'wav',
    sample_rate: 16000,
    voice_effects: [],
    ...overrides,
  };
}
