import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  directionOf,
  isLocalisedPath,
  localizePath,
  pageLanguage,
  rememberPageLanguage,
  routeLanguage,
} from './languages';

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

describe('the language of a page without one in its path', () => {
  const languages = vi.spyOn(navigator, 'languages', 'get');
  afterEach(() => {
    localStorage.clear();
    languages.mockReset();
  });

  it('follows the last content page read: /fr/pricing, then /auth/login is French', () => {
    languages.mockReturnValue(['en-US']);
    expect(pageLanguage('/auth/login')).toBe('default');
    rememberPageLanguage('/fr/pricing');
    expect(pageLanguage('/auth/login')).toBe('fr');
    expect(pageLanguage('/account')).toBe('fr');
    // A content page keeps its own address's language, and reading it is a choice too.
    expect(pageLanguage('/pricing')).toBe('default');
    expect(pageLanguage('/ar/pricing')).toBe('ar');
    rememberPageLanguage('/pricing');
    expect(pageLanguage('/file-history')).toBe('default');
    // Pages without a language (sign-in, account) choose nothing.
    rememberPageLanguage('/de/blog');
    rememberPageLanguage('/auth/register');
    expect(pageLanguage('/auth/login')).toBe('de');
  });

  it('shows an unknown path (the convertor, SPEC §2) in the default language, whatever was read before', () => {
    languages.mockReturnValue(['fr-FR']);
    rememberPageLanguage('/de/blog');
    expect(pageLanguage('/nothing-here')).toBe('default');
    expect(pageLanguage('/this/page/does-not-exist')).toBe('default');
    expect(pageLanguage('/accounts')).toBe('default');
    expect(pageLanguage('/account/plan')).toBe('de');
  });

  it("otherwise takes the first of the browser's languages the site speaks", () => {
    languages.mockReturnValue(['pt-BR', 'es-MX', 'en']);
    expect(pageLanguage('/auth/login')).toBe('es');
    languages.mockReturnValue(['ja']);
    expect(pageLanguage('/auth/login')).toBe('default');
  });
});
