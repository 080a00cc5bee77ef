import { describe, expect, it } from 'vitest';
import {
  COUNTRIES,
  findCountry,
  LanguageCodeSchema,
  splitLanguagePrefix,
  withLanguagePrefix,
} from './countries.js';

describe('COUNTRIES', () => {
  it('holds the ISO 3166-1 countries with the reference fields', () => {
    expect(COUNTRIES.length).toBeGreaterThan(240);
    expect(new Set(COUNTRIES.map((c) => c.iso2)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) {
      expect(country.iso2).toMatch(/^[A-Z]{2}$/);
      expect(country.iso3).toMatch(/^[A-Z]{3}$/);
      expect(country.country).not.toBe('');
      expect(country.continent).not.toBe('');
    }
    expect(findCountry('fr')).toEqual({
      continent: 'Europe',
      region: null,
      country: 'France',
      capital: 'Paris',
      fips: null,
      iso2: 'FR',
      iso3: 'FRA',
      isoNo: null,
      internet: null,
    });
  });

  it('is sorted by name and frozen', () => {
    const names = COUNTRIES.map((c) => c.country);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(Object.isFrozen(COUNTRIES)).toBe(true);
    expect(Object.isFrozen(COUNTRIES[0])).toBe(true);
  });

  it('finds by iso2 in any case', () => {
    expect(findCountry('GB')?.country).toBe('United Kingdom');
    expect(findCountry('gb')?.iso3).toBe('GBR');
    expect(findCountry('Us')?.capital).toBe('Washington D.C.');
    expect(findCountry('xx')).toBeUndefined();
    expect(findCountry('fra')).toBeUndefined();
    expect(findCountry('')).toBeUndefined();
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
