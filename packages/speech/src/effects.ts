import type { VoiceEffect } from '@parla/contract';

/**
 * How each voice effect of SPEC §9 is made with espeak-ng.
 *
 * - whispered: espeak-ng's own `whisper` / `whisperf` variants (voicing off, breath noise on
 *   the formants).
 * - soft: a variant built on the voice's own one, with breath noise, less voicing, softer
 *   consonants and a darker tone curve (docs: espeak-ng voices.md `breath`, `voicing`,
 *   `consonants`, `tone`), 4 dB quieter.
 * - breathing: a breathy variant plus an audible in-breath before each sentence and after
 *   each pause (DSP, see dsp/effects.ts).
 * - the speaking styles are prosody presets: rate, pitch, pitch range and volume.
 */

export interface EffectPreset {
  /** Rate multiplier. */
  rate: number;
  /** Pitch offset in semitones. */
  pitch: number;
  /** espeak-ng pitch range, 0..100 (50 is the voice's normal intonation). */
  range: number;
  /** Gain in dB. */
  volume: number;
  /** How the variant file is made, if the effect needs one. */
  variant?: 'whisper' | 'soft' | 'breathy';
  /** Insert in-breaths at the start of sentences and after pauses. */
  breaths?: boolean;
}

const NEUTRAL: EffectPreset = { rate: 1, pitch: 0, range: 50, volume: 0 };

export const EFFECT_PRESETS: Record<VoiceEffect, EffectPreset> = {
  whispered: { ...NEUTRAL, rate: 0.95, variant: 'whisper' },
  soft: { ...NEUTRAL, rate: 0.95, volume: -4, variant: 'soft' },
  breathing: { ...NEUTRAL, rate: 0.95, variant: 'breathy', breaths: true },
  conversational: { rate: 1.05, pitch: 0.5, range: 60, volume: 0 },
  news: { rate: 1.08, pitch: 0, range: 40, volume: 1 },
  customersupport: { rate: 0.95, pitch: 1, range: 60, volume: 0 },
  assistant: { rate: 1, pitch: 1.5, range: 55, volume: 0 },
  empathic: { rate: 0.9, pitch: -0.5, range: 45, volume: -2 },
  calm: { rate: 0.85, pitch: -1, range: 30, volume: -3 },
  happy: { rate: 1.1, pitch: 2, range: 80, volume: 1 },
  sad: { rate: 0.8, pitch: -2, range: 20, volume: -4 },
  angry: { rate: 1.1, pitch: -1, range: 75, volume: 4 },
  excited: { rate: 1.2, pitch: 3, range: 90, volume: 3 },
  friendly: { rate: 1, pitch: 1, range: 65, volume: 0 },
  hopeful: { rate: 0.95, pitch: 1.5, range: 70, volume: 0 },
  shouting: { rate: 1.05, pitch: 4, range: 85, volume: 8 },
  terrified: { rate: 1.25, pitch: 4, range: 95, volume: -2 },
  unfriendly: { rate: 0.95, pitch: -2, range: 25, volume: 1 },
};

export function presetFor(effect: VoiceEffect | undefined): EffectPreset {
  return effect ? EFFECT_PRESETS[effect] : NEUTRAL;
}

const SOFT_LINES = [
  'voicing 70',
  'breath 25 25 20 15 8 5',
  'consonants 60 60',
  'tone 500 170 1200 90 2500 35',
];

const BREATHY_LINES = ['voicing 85', 'breath 45 45 35 25 12 6'];

/**
 * The variant file for an effect on a voice variant. Custom files repeat the base variant
 * (so a female voice stays female) and add their own lines, which override earlier ones.
 */
export function variantFile(
  kind: 'soft' | 'breathy',
  baseName: string,
  baseContents: string | undefined,
): { name: string; contents: string } {
  const name = baseName ? `parla-${kind}-${baseName}` : `parla-${kind}`;
  const base = (baseContents ?? '')
    .split('\n')
    .filter((line) => !/^\s*(language|name)\b/.test(line))
    .join('\n');
  const lines = kind === 'soft' ? SOFT_LINES : BREATHY_LINES;
  return {
    name,
    contents: `language variant\nname ${name}\n${base}\n${lines.join('\n')}\n`,
  };
}
