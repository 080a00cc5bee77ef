import type { PageContent } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { convertorTexts, FALLBACK_TEXTS } from './page-sections';

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
    const texts = convertorTexts(content);
    expect(texts.intro).toEqual({
      title: 'Speak',
      text: 'Intro text',
      link: { label: 'Plans', link: '/pricing' },
    });
    expect(texts.tiles).toEqual([{ label: 'A', content: 'a' }]);
  });

  it('falls back for missing or hidden sections, and without content', () => {
    const texts = convertorTexts(content);
    expect(texts.faq).toEqual(FALLBACK_TEXTS.faq);
    expect(texts.howItWorks).toEqual(FALLBACK_TEXTS.howItWorks);
    expect(convertorTexts(undefined)).toBe(FALLBACK_TEXTS);
  });
});
