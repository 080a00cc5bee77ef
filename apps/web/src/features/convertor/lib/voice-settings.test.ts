import type { Language } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import {
  changeEngine,
  changeFormat,
  chooseVoice,
  effectsFor,
  findVoice,
  initialSettings,
  sampleRateOptions,
  withinPlan,
} from './voice-settings';

function fail(): never {
  throw new Error('the test catalogue has no standard:cy');
}

const LANGUAGES: Language[] = [
  {
    language_name: 'English (US)',
    language_code: 'en-us',
    voices: [
      {
        id: 'neural:amy',
        name: 'Amy',
        gender: 'female',
        effects: ['news', 'calm'],
        engine: 'neural',
        capabilities: { pitch: true, emphasis: false },
      },
      {
        id: 'standard:en-us',
        name: 'Standard',
        gender: 'male',
        effects: ['whispered', 'soft', 'calm'],
        engine: 'standard',
        capabilities: { pitch: true, emphasis: true },
      },
    ],
  },
  {
    language_name: 'Welsh',
    language_code: 'cy',
    voices: [
      {
        id: 'standard:cy',
        name: 'Welsh',
        gender: 'male',
        effects: [],
        engine: 'standard',
        capabilities: { pitch: false, emphasis: false },
      },
    ],
  },
];

const enabled = (options: { value: string; disabled?: boolean }[]) =>
  options.filter((option) => !option.disabled).map((option) => Number(option.value));

describe('the voice settings rules', () => {
  it('starts on the SPEC defaults: neural, mp3, 48000, sliders at 0', () => {
    const settings = initialSettings(LANGUAGES);
    expect(settings).toMatchObject({
      engine: 'neural',
      output_format: 'mp3',
      sample_rate: 48000,
      voice_id: 'neural:amy',
      master_speed: 0,
    });
  });

  it('falls back to the standard engine (at 24000) when no neural voice is installed', () => {
    const standardOnly = LANGUAGES.map((l) => ({
      ...l,
      voices: l.voices.filter((v) => v.engine === 'standard'),
    }));
    expect(initialSettings(standardOnly)).toMatchObject({
      engine: 'standard',
      sample_rate: 24000,
      voice_id: 'standard:en-us',
    });
  });

  it("starts in the page's language when it has voices: its main variety first, else English", () => {
    const standard = (code: string, name: string): Language => ({
      language_name: name,
      language_code: code,
      voices: [
        {
          id: `standard:${code}`,
          name,
          gender: 'male',
          effects: [],
          engine: 'standard',
          capabilities: { pitch: true, emphasis: true },
        },
      ],
    });
    const many = [
      standard('en-029', 'English (Caribbean)'),
      standard('en-us', 'English (US)'),
      standard('fr-be', 'French (Belgium)'),
      standard('fr-fr', 'French (France)'),
      standard('es-419', 'Spanish (Latin America)'),
      standard('es', 'Spanish (Spain)'),
      standard('ar', 'Arabic'),
      standard('pt-br', 'Portuguese (Brazil)'),
    ];
    expect(initialSettings(many, 'fr').language_code).toBe('fr-fr');
    expect(initialSettings(many, 'es').language_code).toBe('es');
    expect(initialSettings(many, 'ar')).toMatchObject({
      language_code: 'ar',
      voice_id: 'standard:ar',
    });
    expect(initialSettings(many, 'pt').language_code).toBe('pt-br');
    // No German voice: English, the US variety.
    expect(initialSettings(many, 'de').language_code).toBe('en-us');
    expect(initialSettings(many).language_code).toBe('en-us');
    // An engine without the chosen variety keeps the language where it can (Belgian French to
    // the neural engine's French), else goes to English.
    const neural = (code: string): Language['voices'][number] => ({
      id: `neural:${code}`,
      name: code,
      gender: 'female',
      effects: [],
      engine: 'neural',
      capabilities: { pitch: true, emphasis: false },
    });
    const withNeural = many.map((l) =>
      l.language_code === 'fr-fr' || l.language_code === 'en-us'
        ? { ...l, voices: [...l.voices, neural(l.language_code)] }
        : l,
    );
    // Natural voices first where the page's language has some; its standard voices where it
    // has only those (not another language's natural voices); English where it has none.
    expect(initialSettings(withNeural, 'fr')).toMatchObject({
      engine: 'neural',
      language_code: 'fr-fr',
      voice_id: 'neural:fr-fr',
    });
    expect(initialSettings(withNeural, 'ar')).toMatchObject({
      engine: 'standard',
      language_code: 'ar',
      voice_id: 'standard:ar',
    });
    expect(initialSettings(withNeural, 'de')).toMatchObject({
      engine: 'neural',
      language_code: 'en-us',
      voice_id: 'neural:en-us',
    });
    const belgian = {
      ...initialSettings(many, 'fr'),
      language_code: 'fr-be',
      voice_id: 'standard:fr-be',
    };
    expect(changeEngine(belgian, 'neural', withNeural)).toMatchObject({
      language_code: 'fr-fr',
      voice_id: 'neural:fr-fr',
    });
    expect(changeEngine(initialSettings(many, 'ar'), 'neural', withNeural)).toMatchObject({
      language_code: 'en-us',
      voice_id: 'neural:en-us',
    });
  });

  it('disables 48000 and 44100 on the standard engine and all but 16000 for wav', () => {
    expect(enabled(sampleRateOptions('neural', 'mp3'))).toEqual([
      48000, 44100, 24000, 22050, 16000, 8000,
    ]);
    expect(enabled(sampleRateOptions('standard', 'ogg'))).toEqual([24000, 22050, 16000, 8000]);
    expect(enabled(sampleRateOptions('neural', 'wav'))).toEqual([16000]);
    expect(sampleRateOptions('standard', 'mp3')).toHaveLength(6);
  });

  it('resets the rate on an engine or format change', () => {
    const neural = { ...initialSettings(LANGUAGES), sample_rate: 22050 as const };
    const standard = changeEngine(neural, 'standard', LANGUAGES);
    expect(standard).toMatchObject({ sample_rate: 24000, voice_id: 'standard:en-us' });
    expect(changeEngine({ ...standard, sample_rate: 8000 }, 'neural', LANGUAGES).sample_rate).toBe(
      48000,
    );
    expect(changeFormat(neural, 'wav').sample_rate).toBe(16000);
    expect(changeFormat(changeFormat(standard, 'wav'), 'ogg').sample_rate).toBe(24000);
  });

  it('moves to an engine of the plan when the one chosen is not part of it', () => {
    const neural = initialSettings(LANGUAGES);
    expect(neural.engine).toBe('neural');
    expect(withinPlan(neural, ['neural', 'standard'], LANGUAGES)).toBe(neural);
    expect(withinPlan(neural, undefined, LANGUAGES)).toBe(neural);
    expect(withinPlan(neural, ['standard'], LANGUAGES)).toEqual(
      changeEngine(neural, 'standard', LANGUAGES),
    );
  });

  it('offers breathing, soft and whispered only on the standard engine and for voices that have them', () => {
    const standard = changeEngine(initialSettings(LANGUAGES), 'standard', LANGUAGES);
    expect(effectsFor('standard', findVoice(LANGUAGES, standard))).toEqual([
      'whispered',
      'soft',
      'calm',
    ]);
    expect(effectsFor('neural', findVoice(LANGUAGES, standard))).toEqual(['calm']);
    const whispering = { ...standard, effect: 'whispered' as const };
    expect(
      chooseVoice(
        whispering,
        LANGUAGES.flatMap((l) => l.voices).find((v) => v.id === 'standard:cy') ?? fail(),
        'cy',
        LANGUAGES,
      ).effect,
    ).toBeNull();
  });
});
