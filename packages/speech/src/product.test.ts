import { describe, expect, it } from 'vitest';
import { settings } from '../test/request.js';
import { SpeechError } from './errors.js';
import { checkSettings, speechRequestFromSettings } from './product.js';

describe('checkSettings and speechRequestFromSettings', () => {
  it('maps the wire payload to the library request', () => {
    expect(
      speechRequestFromSettings(
        settings({
          voice_id: 'standard:fr-fr+f2',
          text: 'Bonjour.',
          output_format: 'mp3',
          sample_rate: 24000,
          effect: 'calm',
          master_speed: 20,
          master_volume: -3,
          master_pitch: -10,
        }),
      ),
    ).toEqual({
      voice: 'standard:fr-fr+f2',
      text: 'Bonjour.',
      format: 'mp3',
      sampleRate: 24000,
      effect: 'calm',
      speed: 20,
      volume: -3,
      pitch: -10,
    });
  });

  it('applies the SPEC §5 sample-rate rules with the contract messages', () => {
    expect(() => checkSettings(settings({ sample_rate: 48000 }))).toThrow(
      new SpeechError('bad_input', 'WAV output is 16000 Hz only.'),
    );
    expect(() => checkSettings(settings({ output_format: 'mp3', sample_rate: 48000 }))).toThrow(
      new SpeechError(
        'bad_input',
        'The standard engine does not support 48000 Hz; choose 24000 Hz or lower.',
      ),
    );
    // Without the product's rules (the CLI's --any-rate) the engine renders any rate of §9.
    const anyRate = settings({ output_format: 'mp3', sample_rate: 48000 });
    expect(checkSettings(anyRate, { productRules: false })).toEqual(anyRate);
    expect(
      speechRequestFromSettings(checkSettings(anyRate, { productRules: false })).sampleRate,
    ).toBe(48000);
  });

  it('names the field of any other mistake, even without the product rules', () => {
    expect(() => checkSettings(settings({ master_volume: 40 }), { productRules: false })).toThrow(
      new SpeechError('bad_input', 'master_volume: Volume must be between -20 dB and 20 dB.'),
    );
  });

  it('answers the payload as the schema reads it (its text trimmed)', () => {
    const checked = checkSettings(settings({ text: '  Plain words.\n' }));
    expect(checked.text).toBe('Plain words.');
    expect(speechRequestFromSettings(checked).text).toBe('Plain words.');
  });

  it('refuses a voice of another engine than the one chosen', () => {
    expect(() =>
      speechRequestFromSettings(settings({ engine: 'neural', sample_rate: 16000 })),
    ).toThrow(
      new SpeechError(
        'unknown_voice',
        '"standard:en-us" is not a neural voice; choose a neural voice or the standard engine.',
      ),
    );
  });
});
