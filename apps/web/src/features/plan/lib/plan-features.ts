import type { VoiceCounts } from '../api/get-voice-counts';

/** A plan's title as the cards show it ('PREMIUM' -> 'Premium'). */
export function planTitle(type: string): string {
  return type.charAt(0) + type.slice(1).toLowerCase();
}

/** Dollars as the cards show them: '$9', '$12.50'. */
export function formatDollars(price: number): string {
  return Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`;
}

const grouped = new Intl.NumberFormat('en-US');
export const formatCount = (value: number) => grouped.format(value);

/**
 * What every paid card lists (SPEC §9: voices, languages, SSML, file history, commercial use,
 * dedicated support), with voices and languages counted from the real catalogue.
 */
export function planFeatures(counts: VoiceCounts | undefined): string[] {
  return [
    counts ? `${formatCount(counts.voices)} voices` : 'Every voice',
    counts ? `${formatCount(counts.languages)} languages` : 'Every language',
    'SSML',
    'File history (30 days)',
    'Commercial use',
    'Dedicated support',
  ];
}
