import { describe, expect, it } from 'vitest';
import { directionOf, isLocalisedPath, localizePath, routeLanguage } from './languages';

describe('route languages', () => {
  it('recognises a country code prefix and keeps the rest of the path', () => {
    expect(routeLanguage('/fr/pricing')).toEqual({ language: 'fr', path: '/pricing' });
    expect(routeLanguage('/pricing')).toEqual({ language: 'default', path: '/pricing' });
    expect(routeLanguage('/xx/pricing')).toEqual({ language: 'default', path: '/xx/pricing' });
  });

  it('prefixes paths for a language; default has no prefix', () => {
    expect(localizePath('/pricing', 'fr')).toBe('/fr/pricing');
    expect(localizePath('/pricing', 'default')).toBe('/pricing');
  });

  it("reads the route language 'ar' as Arabic, right to left", () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('fr')).toBe('ltr');
    expect(directionOf('default')).toBe('ltr');
  });

  it('knows which pages exist in every language', () => {
    expect(isLocalisedPath('/convertor/ssml')).toBe(true);
    expect(isLocalisedPath('/blog/article/x')).toBe(true);
    expect(isLocalisedPath('/account')).toBe(false);
    expect(isLocalisedPath('/pricingx')).toBe(false);
  });
});
