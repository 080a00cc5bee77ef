import { type VoiceSettings, VoiceSettingsSchema } from '@parla/contract';
import { SpeechError } from './errors.js';
import type { SpeechRequest } from './request.js';

/**
 * The product's wire payload (SPEC §3 "Voice settings", snake_case, from @parla/contract)
 * as the library's request: the one place where the product's rules meet the engine
 * (docs/decisions/008-product-rules-outside-the-engine.md). Checked where it arrives, once:
 * the server's routes by their schema (`VoiceSettingsSchema`), the CLI by `checkSettings`,
 * so that both refuse the same things with the same messages; then mapped here.
 *
 * The `engine` field must be the voice id's engine.
 */
export function speechRequestFromSettings(settings: VoiceSettings): SpeechRequest {
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

/**
 * Checks a payload that did not come through the server's schema (the CLI's options): a
 * mistake is a `bad_input` error naming the field. SPEC §5 sample rates (wav is 16 kHz only,
 * the standard engine stops at 24 kHz) and the standard-only effects are the schema's
 * refinements; `productRules: false` keeps only the fields' own checks (the CLI's
 * `--any-rate`, benchmarks).
 */
export function checkSettings(
  settings: VoiceSettings,
  options: { productRules?: boolean } = {},
): VoiceSettings {
  const productRules = options.productRules ?? true;
  const parsed = VoiceSettingsSchema.safeParse(settings);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues.find((i) => productRules || i.code !== 'custom');
  if (!issue) return settings;
  const field = issue.path.join('.');
  const refinement = issue.code === 'custom';
  throw new SpeechError(
    'bad_input',
    field && !refinement ? `${field}: ${issue.message}` : issue.message,
  );
}
