import { VOICE_SETTINGS_DEFAULTS, type VoiceSettings } from '@parla/contract';
import { checkSettings, speechRequestFromSettings } from '../src/product.js';
import type { SpeechRequest } from '../src/request.js';

/** A legal standard-engine payload (American English, wav 16 kHz) with the given overrides. */
export function settings(overrides: Partial<VoiceSettings> = {}): VoiceSettings {
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

/**
 * The library request of `settings(overrides)`, without the product's sample-rate rules (the
 * engine renders every rate; product.test.ts tests the rules).
 */
export function request(overrides: Partial<VoiceSettings> = {}): SpeechRequest {
  return speechRequestFromSettings(checkSettings(settings(overrides), { productRules: false }));
}
