import type { SynthesisRequest } from '../synthesize.js';

/** A legal standard-engine request with the given overrides. */
export function request(overrides: Partial<SynthesisRequest> = {}): SynthesisRequest {
  return {
    engine: 'standard',
    voice_id: 'standard:en-us',
    language_code: 'en-us',
    text: 'Hello there.',
    output_format: 'wav',
    sample_rate: 16000,
    effect: null,
    master_speed: 0,
    master_volume: 0,
    master_pitch: 0,
    voice_effects: [],
    ...overrides,
  };
}
