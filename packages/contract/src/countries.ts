import { continents, getCountryDataList } from 'countries-list';
import * as z from 'zod';

/**
 * The country reference table of SPEC §2/§3: a route's optional first segment is a language
 * when it matches a country's iso2 code.
 *
 * Source: the `countries-list` package (annexare/Countries, MIT, kept up to date with ISO
 * 3166-1), chosen because it is small enough for the browser bundle (~40 kB of data, versus
 * ~1.4 MB for `world-countries`, which carries translations and geometry). The compact table
 * is derived here at import time; nothing is hand-typed or generated into the repository.
 *
 * Fields the package does not carry are null, never guessed:
 * - `region` (a sub-continental region such as "Western Europe"),
 * - `fips` (FIPS 10-4 code),
 * - `isoNo` (ISO 3166-1 numeric),
 * - `internet` (ccTLD; it is not always the iso2 code, e.g. GB uses .uk).
 * `continent` is the English name of the package's main continent for the country.
 */
export type CountryRecord = {
  continent: string;
  region: string | null;
  country: string;
  capital: string | null;
  fips: string | null;
  /** ISO 3166-1 alpha-2, upper-case ('FR'). */
  iso2: string;
  /** ISO 3166-1 alpha-3, upper-case ('FRA'). */
  iso3: string;
  isoNo: string | null;
  internet: string | null;
};

export const COUNTRIES: readonly CountryRecord[] = Object.freeze(
  getCountryDataList()
    .map(
      (data): CountryRecord =>
        Object.freeze({
          continent: continents[data.continent],
          region: null,
          country: data.name,
          capital: data.capital === '' ? null : data.capital,
          fips: null,
          iso2: data.iso2,
          iso3: data.iso3,
          isoNo: null,
          internet: null,
        }),
    )
    .sort((a, b) => a.country.localeCompare(b.country, 'en')),
);

const byIso2 = new Map(COUNTRIES.map((country) => [country.iso2, country]));

/** The country with this iso2 code (any case), or undefined. */
export function findCountry(code: string): CountryRecord | undefined {
  return byIso2.get(code.toUpperCase());
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
  if (first !== undefined && first.length === 2 && findCountry(first)) {
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
export const LanguageCodeSchema = z
  .string()
  .refine((value) => value === DEFAULT_LANGUAGE || findCountry(value) !== undefined, {
    error: 'Unknown language.',
  })
  .transform((value) => value.toLowerCase());
