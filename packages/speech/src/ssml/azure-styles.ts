import { STANDARD_ONLY_EFFECTS, type VoiceEffect } from '@parla/contract';

/**
 * Azure's speaking styles (`<mstts:express-as style>`) that are one of our effects: what the
 * SSML parser reads, and, by the first name of each, what the Azure engine sends.
 */
export const AZURE_STYLE_EFFECTS: Readonly<Record<string, VoiceEffect>> = {
  chat: 'conversational',
  newscast: 'news',
  'newscast-casual': 'news',
  'newscast-formal': 'news',
  customerservice: 'customersupport',
  assistant: 'assistant',
  empathetic: 'empathic',
  calm: 'calm',
  cheerful: 'happy',
  sad: 'sad',
  angry: 'angry',
  excited: 'excited',
  friendly: 'friendly',
  hopeful: 'hopeful',
  shouting: 'shouting',
  terrified: 'terrified',
  unfriendly: 'unfriendly',
  whispering: 'whispered',
};

/**
 * SPEC §9's styles as Azure names them: each effect's first style above. Whispered stays out:
 * it is one of the standard engine's effects (Polly's), and Azure's voices are neural.
 */
export const AZURE_STYLES: Readonly<Partial<Record<VoiceEffect, string>>> = (() => {
  const styles: Partial<Record<VoiceEffect, string>> = {};
  for (const [style, effect] of Object.entries(AZURE_STYLE_EFFECTS)) {
    if ((STANDARD_ONLY_EFFECTS as readonly string[]).includes(effect)) continue;
    styles[effect] ??= style;
  }
  return styles;
})();
