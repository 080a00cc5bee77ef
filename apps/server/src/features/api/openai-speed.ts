import { SLIDERS } from '@parla/contract';
import { escapeXml, looksLikeSsml } from '@parla/speech';

/**
 * OpenAI's `speed` (0.25 to 4, a multiplier) as Parla's speed slider (-100 to 100 %, where
 * +100 % doubles the rate), and the text wrapped in `<prosody rate>` for what lies beyond the
 * slider (0.25 to 0.5 and 2 to 4).
 */
export function openAiSpeed(speed: number, text: string): { master_speed: number; text: string } {
  const { min, max } = SLIDERS.speed;
  const percent = Math.round(100 * Math.log2(speed));
  const master_speed = Math.min(max, Math.max(min, percent));
  const rest = speed / 2 ** (master_speed / 100);
  if (Math.abs(rest - 1) < 0.01) return { master_speed, text };
  const body = looksLikeSsml(text)
    ? text.replace(/^\s*<speak[^>]*>|<\/speak>\s*$/g, '')
    : escapeXml(text);
  return {
    master_speed,
    text: `<speak><prosody rate="${Math.round(rest * 100)}%">${body}</prosody></speak>`,
  };
}
