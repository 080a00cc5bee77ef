import { type VoiceSettings, VoiceSettingsSchema } from '@parla/contract';
import { SpeechError } from './errors.js';
import type { SpeechRequest } from './request.js';

/**
 * The product's wire payload (SPEC §3 "Voice settings", snake_case, from @parla/contract)
 * as the library's request: the one place where the product's rules meet the engine
 * (docs/decisions/008-product-rules-outside-the-engine.md). The server maps every request
 * with it; the CLI too, so that both refuse the same things with the same messages.
 *
 * - SPEC §5 sample rates (wav is 16 kHz only, the standard engine stops at 24 kHz) and the
 *   standard-only effects come from `VoiceSettingsSchema`; `productRules: false` keeps only
 *   the fields' own checks (the CLI's `--any-rate`, benchmarks).
 * - The `engine` field must be the voice id's engine.
 */
export function speechRequestFromSettings(
  settings: VoiceSettings,
  options: { productRules?: boolean } = {},
): SpeechRequest {
  const productRules = options.productRules ?? true;
  const parsed = VoiceSettingsSchema.safeParse(settings);
  const issue = parsed.success
    ? undefined
    : parsed.error.issues.find((i) => productRules || i.code !== 'custom');
  if (issue) {
    const field = issue.path.join('.');
    const refinement = issue.code === 'custom';
    throw new SpeechError(
      'bad_input',
      field && !refinement ? `${field}: ${issue.message}` : issue.message,
    );
  }
  const voiceEngine = settings.voice_id.split(':')[0];
  if (voiceEngine !== settings.engine) {
    throw new SpeechError(
      'unknown_voice',
      settings.engine === 'neural'
        ? `"${settings.voice_id}" is not a neural voice; choose a neural voice or the standard engine.`
        : `The voice "${settings.voice_id}" needs the ${voiceEngine} engine.`,
    );
  }
  return {
    voice: settings.voice_id,
    text: settings.text,
    format: settings.output_format,
    sampleRate: settings.sample_rate,
    effect: settings.effect,
    speed: settings.master_speed,
    volume: settings.master_volume,
    pitch: settings.master_pitch,
  };
}
