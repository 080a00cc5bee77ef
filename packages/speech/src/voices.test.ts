import { describe, expect, it } from 'vitest';
import { decodeWav } from '../test/audio.js';
import { engineRegistry } from './engines/registry.js';
import { synthesize } from './synthesize.js';
import { catalogueSummary, listVoices, selectVoices } from './voices.js';

describe('the catalogue', () => {
  it('hides constructed and test languages unless the operator turns them on', async () => {
    const codes = (await listVoices()).map((l) => l.language_code);
    for (const hidden of ['piqd', 'qya', 'sjn', 'jbo', 'xex']) expect(codes).not.toContain(hidden);
    expect(codes).toContain('eo');
    const all = await listVoices({ espeak: { extraLanguages: true } });
    const names = all.map((l) => l.language_name);
    expect(names).toEqual(expect.arrayContaining(['Klingon', 'Quenya', 'Sindarin', 'Lojban']));
    // A hidden language's voice is not offered to requests either.
    const standard = engineRegistry().get('standard');
    expect(await standard.resolve('standard:piqd')).toBeUndefined();
    expect(
      await engineRegistry({ espeak: { extraLanguages: true } })
        .get('standard')
        .resolve('standard:piqd'),
    ).toBeDefined();
  });

  it('names voices for people, with their gender', async () => {
    const english = (await listVoices()).find((l) => l.language_code === 'en-us');
    expect(english?.voices.map((v) => [v.name, v.gender])).toContainEqual([
      'English (US) – Female 2',
      'female',
    ]);
  });

  it('resolves BCP-47 codes to the engine language, case-insensitively', async () => {
    const standard = engineRegistry().get('standard');
    for (const code of ['zh-CN', 'zh', 'ZH-cn', 'cmn']) {
      expect((await standard.resolve(`standard:${code}`))?.language, code).toBe('cmn');
    }
    expect((await standard.resolve('standard:en'))?.language).toBe('en-us');
    expect((await standard.resolve('standard:EN-GB+f2'))?.id).toBe('standard:en-gb+f2');
    expect((await standard.resolve('standard:de-AT'))?.language).toBe('de');
    expect(await standard.resolve('standard:xx-zz')).toBeUndefined();
    expect((await standard.voiceForLanguage('zh-TW', 'female'))?.id).toBe('standard:cmn+f1');
  });

  it('switches to the language of a BCP-47 <voice language> inside a text', async () => {
    const result = await synthesize({
      voice: 'standard:en-us',
      text: '<speak>Hello. <voice language="zh-CN">你好</voice></speak>',
      format: 'wav',
      sampleRate: 16000,
    });
    expect(decodeWav(result.audio).samples.length / 16000).toBeGreaterThan(0.8);
    await expect(
      synthesize({
        voice: 'standard:en-us',
        text: '<speak><voice language="tlh">Qapla</voice></speak>',
        format: 'wav',
        sampleRate: 16000,
      }),
    ).rejects.toMatchObject({ code: 'unknown_voice' });
  });

  it('selects a language and an engine, and counts what it offers', async () => {
    const languages = await listVoices();
    const chinese = selectVoices(languages, { language: 'zh-CN' });
    expect(chinese.map((l) => l.language_code)).toEqual(['cmn']);
    expect(selectVoices(languages, { language: 'EN' })[0]?.language_code).toBe('en-us');
    expect(selectVoices(languages, { engine: 'neural' })).toEqual([]);
    expect(selectVoices(languages, { language: 'xx' })).toEqual([]);
    const summary = catalogueSummary(languages);
    expect(summary.languages).toBe(languages.length);
    expect(summary.voices).toBe(languages.length * 8);
  });
});
