import { TAG_COSTS } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { ssmlElements } from './ssml-schema';

describe("the SSML tab's completion", () => {
  const elements = ssmlElements((tag, cost) => `${tag}: ${cost}`);
  const detail = (name: string) =>
    elements.find((element) => element.name === name)?.completion?.detail;

  it('offers phoneme, sub and lang with what their markup costs (issue 32)', () => {
    expect(detail('phoneme')).toBe(`phoneme: ${'<phoneme alphabet="ipa" ph=""></phoneme>'.length}`);
    expect(detail('sub')).toBe(`sub: ${'<sub alias=""></sub>'.length}`);
    expect(detail('lang')).toBe(`lang: ${'<lang xml:lang=""></lang>'.length}`);
    const phoneme = elements.find((element) => element.name === 'phoneme');
    expect(phoneme?.attributes).toEqual([{ name: 'alphabet', values: ['ipa', 'x-sampa'] }, 'ph']);
  });

  it("gives the toolbar's SPEC costs to the tags it inserts, and lets them hold the new ones", () => {
    expect(detail('break')).toBe(`break: ${TAG_COSTS.pause}`);
    expect(detail('say-as')).toBe(`say-as: ${TAG_COSTS.sayAs}`);
    expect(detail('prosody')).toBeUndefined();
    const speak = elements.find((element) => element.name === 'speak');
    expect(speak?.children).toEqual(expect.arrayContaining(['phoneme', 'sub', 'lang']));
  });
});
