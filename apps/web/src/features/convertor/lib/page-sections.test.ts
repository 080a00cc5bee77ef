import type { PageContent } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { rootI18n } from '../../../lib/i18n';
import { convertorTexts, fallbackTexts } from './page-sections';

const FALLBACK_TEXTS = fallbackTexts(rootI18n.t, { voices: 1200, languages: 3 });

const content: PageContent = {
  translations: [],
  language: { name: 'English', code: 'default' },
  link: '/convertor',
  sections: [
    {
      id: 'intro',
      visibility: 'visible',
      tags: [
        { type: 'title', content: 'Speak' },
        { type: 'text', content: 'Intro text' },
        { type: 'link', label: 'Plans', link: '/pricing' },
      ],
    },
    { id: 'info-tiles', visibility: 'visible', tags: [{ type: 'tile', label: 'A', content: 'a' }] },
    { id: 'faq', visibility: 'hidden', tags: [{ type: 'question', label: 'Q', content: 'A' }] },
  ],
};

describe('the convertor page texts', () => {
  it('reads the sections of the content call', () => {
    const texts = convertorTexts(content, FALLBACK_TEXTS);
    expect(texts.intro).toEqual({
      title: 'Speak',
      text: 'Intro text',
      link: { label: 'Plans', link: '/pricing' },
    });
    expect(texts.tiles).toEqual([{ label: 'A', content: 'a' }]);
  });

  it('falls back for missing or hidden sections, and without content', () => {
    const texts = convertorTexts(content, FALLBACK_TEXTS);
    expect(texts.faq).toEqual(FALLBACK_TEXTS.faq);
    expect(texts.howItWorks).toEqual(FALLBACK_TEXTS.howItWorks);
    expect(convertorTexts(undefined, FALLBACK_TEXTS)).toBe(FALLBACK_TEXTS);
    // Counts come from the catalogue, never a claimed number.
    expect(FALLBACK_TEXTS.tiles.slice(0, 2).map((tile) => tile.label)).toEqual([
      '3 languages',
      '1,200 voices',
    ]);
  });

  it('names natural speech only when the catalogue has natural voices (issue 29)', () => {
    const none = fallbackTexts(rootI18n.t, { voices: 1048, languages: 131, natural: 0 });
    expect(none.intro.title).toBe('Turn your text into speech');
    expect(JSON.stringify(none)).not.toMatch(/natural|neural/i);
    expect(fallbackTexts(rootI18n.t, undefined).intro.title).toBe('Turn your text into speech');
    const some = fallbackTexts(rootI18n.t, { voices: 1101, languages: 131, natural: 53 });
    expect(some.intro.title).toBe('Turn your text into natural speech');
    expect(some.tiles[1]?.content).toBe(
      'Neural and standard voices, each with the effects it supports.',
    );
  });
});
