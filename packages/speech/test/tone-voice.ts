import type { EngineVoice } from '../src/engines/types.js';

/** The voice of a test engine that answers tones: English, no SSML of its own, no timings. */
export function toneVoice(id: string, name: string): EngineVoice {
  return {
    id,
    name,
    gender: 'neutral',
    provider: 'test',
    language: 'en-us',
    languageName: 'English (US)',
    capabilities: {
      pitch: false,
      emphasis: false,
      rate: false,
      effects: [],
      nativeSsml: [],
      wordTimings: false,
      phonemes: false,
      engineName: 'a test engine',
      maxTextPerCall: 1000,
    },
  };
}
