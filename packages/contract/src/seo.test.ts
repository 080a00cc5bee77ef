import { describe, expect, it } from 'vitest';
import { SeoMetaQuerySchema, SeoMetaSchema, seoMetaQueryFor } from './seo.js';

describe('seoMetaQueryFor (SPEC §7)', () => {
  it.each([
    ['/pricing', { type: 'pages', language: 'default', path: '/pricing' }],
    ['/fr/pricing', { type: 'pages', language: 'fr', path: '/pricing' }],
    ['/blog/article/hello', { type: 'blog', language: 'default', path: '/blog/article/hello' }],
    ['/de/blog/article/hallo', { type: 'blog', language: 'de', path: '/blog/article/hallo' }],
    ['/blog?tag=news', { type: 'pages', language: 'default', path: '/blog' }],
    ['/', { type: 'pages', language: 'default', path: '/' }],
  ])('%s', (location, expected) => {
    const query = seoMetaQueryFor(location);
    expect(query).toEqual(expected);
    expect(SeoMetaQuerySchema.parse(query)).toEqual(expected);
  });

  it('refuses a bad query', () => {
    expect(
      SeoMetaQuerySchema.safeParse({ type: 'shop', language: 'default', path: '/' }).success,
    ).toBe(false);
    expect(
      SeoMetaQuerySchema.safeParse({ type: 'pages', language: 'default', path: 'x' }).success,
    ).toBe(false);
  });
});

describe('SeoMetaSchema', () => {
  it('needs the four groups', () => {
    const text = { title: 'Parla', description: 'Text to speech' };
    const meta = {
      main: text,
      open_graph: { ...text, type: 'website', image: '/og.png', alt: 'Parla' },
      microdata: { ...text, image: '/og.png' },
      twitter: { ...text, image: '/og.png', alt: 'Parla' },
    };
    expect(SeoMetaSchema.parse(meta)).toEqual(meta);
    expect(SeoMetaSchema.safeParse({ ...meta, twitter: undefined }).success).toBe(false);
  });
});
