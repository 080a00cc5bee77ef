import { VOICE_SETTINGS_DEFAULTS, type VoiceSettings } from '@parla/contract';

/** A legal conversion request (standard engine, American English, wav 16 kHz), changed as given. */
export function voiceSettings(change: Partial<VoiceSettings> = {}): VoiceSettings {
  return {
    ...VOICE_SETTINGS_DEFAULTS,
    engine: 'standard',
    voice_id: 'standard:en-us',
    language_code: 'en-us',
    text: 'Hello there.',
    output_format: 'wav',
    sample_rate: 16000,
    voice_effects: [],
    ...change,
  };
}
