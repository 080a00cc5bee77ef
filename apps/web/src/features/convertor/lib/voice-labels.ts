import type { Language, Voice, VoiceEffect } from '@parla/contract';
import type { TFunction } from 'i18next';

const namers = new Map<string, Intl.DisplayNames>();

/**
 * A language's name in the page's language (issue 33, item 4) through `Intl.DisplayNames`
 * ("anglais (États-Unis)" for en-US on /fr), or the catalogue's name when the browser does
 * not know the code.
 */
export function languageLabel(
  language: Pick<Language, 'language_code' | 'language_name'>,
  locale: string,
): string {
  let namer = namers.get(locale);
  if (!namer) {
    namer = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
    namers.set(locale, namer);
  }
  try {
    const name = namer.of(language.language_code);
    return name ? name.charAt(0).toLocaleUpperCase(locale) + name.slice(1) : language.language_name;
  } catch {
    // A code Intl rejects (not BCP 47): the catalogue's own name.
    return language.language_name;
  }
}

/** A gender as a capitalised, translated label ("Female", "Femme"); an unknown one as it is. */
export function genderLabel(gender: string, t: TFunction): string {
  const known = gender.toLowerCase();
  if (known === 'female') return t('settings.female');
  if (known === 'male') return t('settings.male');
  if (known === 'neutral') return t('settings.neutral');
  return gender;
}

const EFFECT_KEYS = {
  breathing: 'effects.breathing',
  soft: 'effects.soft',
  whispered: 'effects.whispered',
  conversational: 'effects.conversational',
  news: 'effects.news',
  customersupport: 'effects.customersupport',
  assistant: 'effects.assistant',
  empathic: 'effects.empathic',
  calm: 'effects.calm',
  happy: 'effects.happy',
  sad: 'effects.sad',
  angry: 'effects.angry',
  excited: 'effects.excited',
  friendly: 'effects.friendly',
  hopeful: 'effects.hopeful',
  shouting: 'effects.shouting',
  terrified: 'effects.terrified',
  unfriendly: 'effects.unfriendly',
} as const satisfies Record<VoiceEffect, string>;

/** An effect's human, translated label ("Customer support", not `customersupport`). */
export function effectLabel(effect: VoiceEffect, t: TFunction): string {
  return t(EFFECT_KEYS[effect]);
}

const NUMBERED = /^(Male|Female) (\d+)$/;

/**
 * A voice's name in the page's language: the catalogue's numbered voices ("Arabic – Male 1")
 * are written from their translated language and gender ("Arabe – Homme 1"); named voices
 * (Joanna, Lea) keep their names.
 */
export function voiceLabel(voice: Voice, language: Language, locale: string, t: TFunction): string {
  const prefix = `${language.language_name} – `;
  if (!voice.name.startsWith(prefix)) return voice.name;
  const variant = voice.name.slice(prefix.length).match(NUMBERED);
  if (!variant?.[1] || !variant[2]) return voice.name;
  return `${languageLabel(language, locale)} – ${genderLabel(variant[1], t)} ${variant[2]}`;
}
