import codes from 'countries-list/minimal/countries.2to3.min.json' with { type: 'json' };
import * as z from 'zod/mini';

/**
 * The optional language prefix of a route (SPEC §2): a first segment that is a country's iso2
 * code. The codes come from `countries-list`'s minimal list (2.7 kB), the same package and
 * release as the country table of countries.ts (a test keeps the two equal), so that the
 * pages, which all need this, do not all load the table's 40 kB.
 */

const COUNTRY_CODES = new Set(Object.keys(codes));

/** Whether a code (any case) is a country's iso2 code. */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code.toUpperCase());
}

/** The language of a route or a content call when no country prefix is present. */
export const DEFAULT_LANGUAGE = 'default';

/**
 * Splits the optional language prefix off a pathname (SPEC §2): '/fr/pricing' gives
 * { language: 'fr', path: '/pricing' }; a path whose first segment is not an iso2 code is
 * returned whole with the language 'default'. `path` always starts with '/'.
 */
export function splitLanguagePrefix(pathname: string): { language: string; path: string } {
  const path = pathname.startsWith('/') ? pathname : `/${pathname}`;
  const match = /^\/([^/?#]+)(.*)$/.exec(path);
  const first = match?.[1];
  if (first !== undefined && first.length === 2 && isCountryCode(first)) {
    const rest = match?.[2] ?? '';
    return { language: first.toLowerCase(), path: rest.startsWith('/') ? rest : `/${rest}` };
  }
  return { language: DEFAULT_LANGUAGE, path };
}

/** Prefixes a path with a language; 'default' adds nothing. */
export function withLanguagePrefix(language: string, path: string): string {
  const normalised = path.startsWith('/') ? path : `/${path}`;
  if (language === DEFAULT_LANGUAGE) return normalised;
  return normalised === '/' ? `/${language}` : `/${language}${normalised}`;
}

/** A language as calls carry it: 'default' or a known iso2 code, normalised to lower case. */
export const LanguageCodeSchema = z.pipe(
  z.string().check(
    z.refine((value) => value === DEFAULT_LANGUAGE || isCountryCode(value), {
      error: 'Unknown language.',
    }),
  ),
  z.transform((value) => value.toLowerCase()),
);
