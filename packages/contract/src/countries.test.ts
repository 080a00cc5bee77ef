import { describe, expect, it } from 'vitest';
import { COUNTRIES, findCountry } from './countries.js';

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
