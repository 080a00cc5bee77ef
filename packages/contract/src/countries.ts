import { continents, getCountryDataList } from 'countries-list';

/**
 * The country reference table of SPEC §2/§3 (billing details, invoices); the language prefixes
 * of the routes are the same countries' iso2 codes (language-prefix.ts, which reads only the
 * package's list of codes, so that every page need not carry the whole table).
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
