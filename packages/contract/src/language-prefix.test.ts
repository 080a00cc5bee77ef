import { describe, expect, it } from 'vitest';
import { COUNTRIES } from './countries.js';
import {
  isCountryCode,
  LanguageCodeSchema,
  splitLanguagePrefix,
  withLanguagePrefix,
} from './language-prefix.js';

describe('the language prefixes', () => {
  it("are exactly the country table's iso2 codes", () => {
    const codes = COUNTRIES.map((country) => country.iso2);
    expect(codes.every(isCountryCode)).toBe(true);
    expect(codes.map((code) => code.toLowerCase()).every(isCountryCode)).toBe(true);
    // Every code the prefixes know is a country of the table, and no other.
    const table = new Set(codes);
    const known = [...Array(26 * 26)].map(
      (_, i) => String.fromCharCode(65 + Math.floor(i / 26)) + String.fromCharCode(65 + (i % 26)),
    );
    expect(known.filter(isCountryCode)).toEqual(known.filter((code) => table.has(code)));
  });
});

describe('splitLanguagePrefix', () => {
  it.each([
    ['/fr/pricing', { language: 'fr', path: '/pricing' }],
    ['/FR/pricing', { language: 'fr', path: '/pricing' }],
    ['/de/blog/article/hello', { language: 'de', path: '/blog/article/hello' }],
    ['/fr', { language: 'fr', path: '/' }],
    ['/fr/', { language: 'fr', path: '/' }],
    ['/pricing', { language: 'default', path: '/pricing' }],
    ['/', { language: 'default', path: '/' }],
    ['', { language: 'default', path: '/' }],
    ['/blog/article/x', { language: 'default', path: '/blog/article/x' }],
    ['/xx/pricing', { language: 'default', path: '/xx/pricing' }],
    ['/fra/pricing', { language: 'default', path: '/fra/pricing' }],
    ['convertor/text', { language: 'default', path: '/convertor/text' }],
  ])('%j', (pathname, expected) => {
    expect(splitLanguagePrefix(pathname)).toEqual(expected);
  });

  it('is undone by withLanguagePrefix', () => {
    expect(withLanguagePrefix('fr', '/pricing')).toBe('/fr/pricing');
    expect(withLanguagePrefix('fr', '/')).toBe('/fr');
    expect(withLanguagePrefix('default', '/pricing')).toBe('/pricing');
    for (const pathname of ['/fr/pricing', '/pricing', '/de/blog']) {
      const { language, path } = splitLanguagePrefix(pathname);
      expect(withLanguagePrefix(language, path)).toBe(pathname);
    }
  });
});

describe('LanguageCodeSchema', () => {
  it("accepts 'default' and iso2 codes, lower-cased", () => {
    expect(LanguageCodeSchema.parse('default')).toBe('default');
    expect(LanguageCodeSchema.parse('FR')).toBe('fr');
    expect(LanguageCodeSchema.safeParse('xx').success).toBe(false);
    expect(LanguageCodeSchema.safeParse('french').success).toBe(false);
  });
});
