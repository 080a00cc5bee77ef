import { DEFAULT_LANGUAGE, splitLanguagePrefix, withLanguagePrefix } from '@parla/contract';

export { DEFAULT_LANGUAGE };

/**
 * The languages the public site is offered in. Until the content service (a later issue)
 * answers the list of translated languages, this is it. A route language is a lower-case
 * country code recognised by `splitLanguagePrefix` (the country reference table), or 'default'.
 */
export interface SiteLanguage {
  /** The route segment ('default' has none). */
  code: string;
  /** BCP 47 tag for the html lang attribute. */
  locale: string;
  /** The language's name in English and in itself. */
  name: string;
  nativeName: string;
  dir: 'ltr' | 'rtl';
}

export const SITE_LANGUAGES: readonly SiteLanguage[] = [
  { code: DEFAULT_LANGUAGE, locale: 'en', name: 'English', nativeName: 'English', dir: 'ltr' },
  { code: 'fr', locale: 'fr', name: 'French', nativeName: 'Français', dir: 'ltr' },
  { code: 'de', locale: 'de', name: 'German', nativeName: 'Deutsch', dir: 'ltr' },
  { code: 'es', locale: 'es', name: 'Spanish', nativeName: 'Español', dir: 'ltr' },
  // 'ar' is Argentina in the country table; as a route language it means Arabic.
  { code: 'ar', locale: 'ar', name: 'Arabic', nativeName: 'العربية', dir: 'rtl' },
];

const FALLBACK_LANGUAGE = SITE_LANGUAGES[0] as SiteLanguage;

/** What we know of a route language; unknown country codes keep the code and read left to right. */
export function describeLanguage(code: string): SiteLanguage {
  const known = SITE_LANGUAGES.find((language) => language.code === code);
  if (known) return known;
  if (code === DEFAULT_LANGUAGE) return FALLBACK_LANGUAGE;
  return {
    code,
    locale: code,
    name: code.toUpperCase(),
    nativeName: code.toUpperCase(),
    dir: 'ltr',
  };
}

/** Right-to-left route languages. */
export function directionOf(code: string): 'ltr' | 'rtl' {
  return describeLanguage(code).dir;
}

/** The route language of a pathname and the path without it. */
export function routeLanguage(pathname: string): { language: string; path: string } {
  return splitLanguagePrefix(pathname);
}

/** A path of the site in a language: '/pricing' in 'fr' is '/fr/pricing'; 'default' has no prefix. */
export function localizePath(path: string, language: string): string {
  return withLanguagePrefix(language || DEFAULT_LANGUAGE, path);
}

/**
 * The routes that also exist under a language prefix (SPEC §2): the content pages. The
 * language switcher is shown on these.
 */
export const LOCALISED_ROUTE_ROOTS = [
  '/convertor',
  '/pricing',
  '/contact',
  '/privacy-policy',
  '/terms-of-services',
  '/blog',
] as const;

export function isLocalisedPath(path: string): boolean {
  return LOCALISED_ROUTE_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}

/**
 * The pages that exist once, without a language prefix (sign-in, account, File History…):
 * shown in the visitor's preferred language. Any other unprefixed path is SPEC §2's "any
 * other path", the convertor, in the default language (router.test.tsx keeps this list and the
 * router's routes together).
 */
export const UNLOCALISED_ROUTE_ROOTS = [
  '/auth',
  '/account',
  '/file-history',
  '/documents',
  '/pronunciations',
  '/admin',
  '/sitemap',
  '/sitemap.html',
] as const;

function isUnlocalisedPage(path: string): boolean {
  return UNLOCALISED_ROUTE_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}

const PREFERENCE_KEY = 'parla.language';

/**
 * The language a visitor reads the site in, for the pages whose path has none (sign-in,
 * account, File History…): the language of the last content page they read, else the first of
 * their browser's languages the site speaks, else English.
 */
export function preferredLanguage(): string {
  try {
    const stored = localStorage.getItem(PREFERENCE_KEY);
    if (stored && SITE_LANGUAGES.some((language) => language.code === stored)) return stored;
  } catch {
    // Storage refused (private mode, a sandboxed frame): the browser's languages decide.
  }
  const tags =
    typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of tags) {
    const base = tag.toLowerCase().split('-')[0];
    const found = SITE_LANGUAGES.find((language) => language.locale === base);
    if (found) return found.code;
  }
  return DEFAULT_LANGUAGE;
}

/**
 * The language a page is shown in: its path's (/fr/pricing is French); English for a content
 * page without a prefix (it exists in every language, each at its own address) and for any
 * other unknown path (the convertor, SPEC §2); the visitor's preferred language for the pages
 * that exist once (sign-in, account…).
 */
export function pageLanguage(pathname: string): string {
  const { language, path } = routeLanguage(pathname);
  if (language !== DEFAULT_LANGUAGE || !isUnlocalisedPage(path)) return language;
  return preferredLanguage();
}

/** Reading a content page makes its language the preferred one (`preferredLanguage`). */
export function rememberPageLanguage(pathname: string): void {
  const { language, path } = routeLanguage(pathname);
  const content = language !== DEFAULT_LANGUAGE || isLocalisedPath(path);
  if (!content || !SITE_LANGUAGES.some((known) => known.code === language)) return;
  try {
    localStorage.setItem(PREFERENCE_KEY, language);
  } catch {
    // Not remembered: the next page without a prefix follows the browser's languages.
  }
}
