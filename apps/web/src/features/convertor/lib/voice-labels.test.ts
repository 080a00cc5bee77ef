import type { Language } from '@parla/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18nFor, loadLanguage } from '../../../lib/i18n';
import { effectLabel, genderLabel, languageLabel, voiceLabel } from './voice-labels';

const ARABIC: Language = {
  language_name: 'Arabic',
  language_code: 'ar',
  voices: [
    {
      id: 'standard:ar',
      name: 'Arabic – Male 1',
      gender: 'male',
      effects: [],
      engine: 'standard',
      capabilities: { pitch: true, emphasis: true },
    },
    {
      id: 'neural:polly:Zeina',
      name: 'Zeina',
      gender: 'Female',
      effects: [],
      engine: 'neural',
      capabilities: { pitch: false, emphasis: false },
    },
  ],
};
const [numbered, named] = ARABIC.voices as [Language['voices'][0], Language['voices'][0]];

describe('voice labels in the page language (issue 33, item 4)', () => {
  beforeAll(async () => {
    for (const locale of ['en', 'fr', 'ar']) await loadLanguage(locale);
  });

  it('names languages through Intl.DisplayNames, or the catalogue when Intl does not know them', () => {
    expect(languageLabel({ language_code: 'en-US', language_name: 'English' }, 'fr')).toBe(
      'Anglais américain',
    );
    expect(languageLabel(ARABIC, 'ar')).toBe('العربية');
    expect(languageLabel({ language_code: 'not a code!', language_name: 'Kept' }, 'en')).toBe(
      'Kept',
    );
  });

  it('writes numbered voices in the language, keeps named ones, and capitalises genders', () => {
    const fr = i18nFor('fr').t;
    expect(voiceLabel(numbered, ARABIC, 'fr', fr)).toBe('Arabe – Homme 1');
    expect(voiceLabel(numbered, ARABIC, 'ar', i18nFor('ar').t)).toBe('العربية – ذكر 1');
    expect(voiceLabel(named, ARABIC, 'fr', fr)).toBe('Zeina');
    expect(genderLabel(named.gender, i18nFor('en').t)).toBe('Female');
    expect(genderLabel('robot', i18nFor('en').t)).toBe('robot');
  });

  it('gives effects human labels', () => {
    expect(effectLabel('customersupport', i18nFor('en').t)).toBe('Customer support');
    expect(effectLabel('customersupport', i18nFor('fr').t)).toBe('Service client');
  });
});
