import type { SayAsType } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { normaliseSayAs } from './say-as.js';

type Case = [SayAsType, string, string, string?];

const spoken = async (language: string, [type, text, , format]: Case) => {
  const result = await normaliseSayAs(
    text,
    { interpretAs: type, ...(format !== undefined && { format }) },
    language,
  );
  return result.kind === 'bleep' ? `<bleep ${result.seconds}s>` : result.text;
};

const CASES: Record<string, Case[]> = {
  'en-us': [
    ['cardinal', '1,234', 'one thousand two hundred thirty-four'],
    ['ordinal', '21st', 'twenty-first'],
    ['digits', '2024', 'two zero two four'],
    ['fraction', '3/4', 'three quarters'],
    ['fraction', '1 1/2', 'one and a half'],
    ['characters', 'AB1', 'A B one'],
    ['spell-out', 'cat', 'c a t'],
    ['date', '2024-03-15', 'March fifteenth twenty twenty-four'],
    ['date', '03/2024', 'March twenty twenty-four', 'my'],
    ['time', '9:05', 'nine oh five'],
    ['time', '2:30pm', 'two thirty p m'],
    ['telephone', '+1 555-0100', 'plus one, five five five, zero one zero zero'],
    ['address', '12 Main St.', 'twelve Main Street'],
    ['unit', '5 kg', 'five kilograms'],
    ['unit', '1 km', 'one kilometre'],
    ['expletive', 'darn', '<bleep 0.32s>'],
  ],
  'fr-fr': [
    ['cardinal', '1 234', 'mille deux cent trente-quatre'],
    ['ordinal', '1er', 'premier'],
    ['digits', '42', 'quatre deux'],
    ['fraction', '3/4', 'trois quarts'],
    ['characters', 'AB1', 'A B un'],
    ['spell-out', 'oui', 'o u i'],
    ['date', '15/03/2024', 'le quinze mars deux mille vingt-quatre'],
    ['time', '14:30', 'quatorze heures trente'],
    ['telephone', '01 23 45', 'zéro un, deux trois, quatre cinq'],
    ['address', '12 bd Haussmann', 'douze boulevard Haussmann'],
    ['unit', '2,5 km/h', 'deux virgule cinq kilomètres heure'],
    ['expletive', 'zut', '<bleep 0.3s>'],
  ],
  de: [
    ['cardinal', '1.234', 'eintausendzweihundertvierunddreißig'],
    ['ordinal', '3.', 'dritte'],
    ['digits', '42', 'vier zwei'],
    ['fraction', '1 1/2', 'eineinhalb'],
    ['fraction', '5/8', 'fünf Achtel'],
    ['characters', 'AB1', 'A B eins'],
    ['spell-out', 'ja', 'j a'],
    ['date', '15.03.2024', 'fünfzehnter März zweitausendvierundzwanzig'],
    ['time', '14:30', 'vierzehn Uhr dreißig'],
    ['telephone', '030 1234', 'null drei null, eins zwei drei vier'],
    ['address', 'Hauptstr. 5', 'Hauptstraße fünf'],
    ['unit', '1 km', 'ein Kilometer'],
    ['expletive', 'Mist', '<bleep 0.32s>'],
  ],
  es: [
    ['cardinal', '1.234', 'mil doscientos treinta y cuatro'],
    ['ordinal', '2º', 'segundo'],
    ['digits', '42', 'cuatro dos'],
    ['fraction', '3/4', 'tres cuartos'],
    ['characters', 'AB1', 'A B uno'],
    ['spell-out', 'sí', 's í'],
    ['date', '15/03/2024', 'quince de marzo de dos mil veinticuatro'],
    ['time', '14:30', 'las catorce y treinta'],
    ['telephone', '+34 91 123', 'más tres cuatro, nueve uno, uno dos tres'],
    ['address', 'C/ Mayor 3', 'calle Mayor tres'],
    ['unit', '5 kg', 'cinco kilogramos'],
    ['expletive', 'ostras', '<bleep 0.48s>'],
  ],
};

describe.each(Object.keys(CASES))('say-as in %s', (language) => {
  it.each(CASES[language] ?? [])('%s "%s" is said "%s"', async (...testCase) => {
    expect(await spoken(language, testCase)).toBe(testCase[2]);
  });

  it('covers every say-as type', () => {
    const types = new Set((CASES[language] ?? []).map(([type]) => type));
    expect(types.size).toBe(12);
  });
});

describe('say-as in a language n2words lacks', () => {
  it('keeps the digits for espeak-ng to read', async () => {
    expect(await normaliseSayAs('12', { interpretAs: 'cardinal' }, 'eu')).toEqual({
      kind: 'words',
      text: '12',
    });
  });
});

describe('say-as numbers beyond 15 digits', () => {
  it('reads them digit by digit, in the language', async () => {
    expect(
      await normaliseSayAs('123456789012345', { interpretAs: 'cardinal' }, 'en-us'),
    ).toMatchObject({ text: expect.stringMatching(/^one hundred twenty-three trillion/) });
    expect(await normaliseSayAs('1234567890123456', { interpretAs: 'cardinal' }, 'en-us')).toEqual({
      kind: 'words',
      text: 'one two three four five six seven eight nine zero one two three four five six',
    });
    expect(await normaliseSayAs('-12345678901234567.5', { interpretAs: 'cardinal' }, 'fr')).toEqual(
      {
        kind: 'words',
        text: 'moins un deux trois quatre cinq six sept huit neuf zéro un deux trois quatre cinq six sept virgule cinq',
      },
    );
    expect(
      await normaliseSayAs('12345678901234567th', { interpretAs: 'ordinal' }, 'en-us'),
    ).toMatchObject({ text: expect.stringMatching(/^one two three .* six seven$/) });
  });
});
