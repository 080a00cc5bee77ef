import type { SayAs } from '../document.js';
import { SSML_LIMITS } from '../ssml/limits.js';
import { type NumberWords, numberWords } from './numbers.js';

/**
 * say-as normalisation (SSML 1.1 §3.1.9, types of SPEC §9) into words per language.
 * English, French, German and Spanish have full word tables; other languages get numbers
 * through n2words and fall back to espeak-ng's own reading for the rest.
 */

export type Normalised =
  | { kind: 'words'; text: string }
  | { kind: 'spell'; text: string }
  | { kind: 'bleep'; seconds: number };

type Lang = 'en' | 'fr' | 'de' | 'es' | 'other';

function langOf(language: string): Lang {
  const primary = language.toLowerCase().split('-')[0] ?? '';
  return primary === 'en' || primary === 'fr' || primary === 'de' || primary === 'es'
    ? primary
    : 'other';
}

const WORDS = {
  en: { plus: 'plus', over: 'over', and: 'and', minus: 'minus', point: 'point', oclock: "o'clock" },
  fr: { plus: 'plus', over: 'sur', and: 'et', minus: 'moins', point: 'virgule', oclock: 'heures' },
  de: { plus: 'plus', over: 'durch', and: 'und', minus: 'minus', point: 'Komma', oclock: 'Uhr' },
  es: { plus: 'más', over: 'entre', and: 'y', minus: 'menos', point: 'coma', oclock: 'en punto' },
  other: { plus: '+', over: '/', and: '', minus: '-', point: ',', oclock: '' },
} as const;

/** Languages writing 3,5 for three and a half. */
const DECIMAL_COMMA = new Set<Lang>(['fr', 'de', 'es']);

export async function normaliseSayAs(
  text: string,
  sayAs: SayAs,
  language: string,
): Promise<Normalised> {
  const lang = langOf(language);
  const found = await numberWords(language);
  const numbers = found && digitByDigitWhenLong(found, lang);
  const raw = text.trim();
  switch (sayAs.interpretAs) {
    case 'cardinal':
      return words(cardinalText(raw, lang, numbers));
    case 'ordinal':
      return words(ordinalText(raw, lang, numbers));
    case 'digits':
      return words(digitsText(raw, numbers));
    case 'fraction':
      return words(fractionText(raw, lang, numbers));
    case 'characters':
    case 'spell-out':
      return { kind: 'spell', text: spell(raw, numbers) };
    case 'date':
      return words(dateText(raw, sayAs.format, lang, language, numbers));
    case 'time':
      return words(timeText(raw, lang, numbers));
    case 'telephone':
      return words(telephoneText(raw, lang, numbers));
    case 'address':
      return words(addressText(raw, lang, numbers));
    case 'unit':
      return words(unitText(raw, lang, numbers));
    case 'expletive':
      // A bleep as long as the word would take to say, roughly 80 ms a letter.
      return { kind: 'bleep', seconds: Math.min(2, Math.max(0.3, raw.length * 0.08)) };
  }
}

/**
 * Number words that read a number of more than `SSML_LIMITS.maxNumberDigits` digits digit by
 * digit: nobody says a 40-digit number as words, and n2words has no names past about 10^300.
 */
function digitByDigitWhenLong(numbers: NumberWords, lang: Lang): NumberWords {
  const long = (value: string | bigint | number) =>
    String(value).replace(/\D/g, '').length > SSML_LIMITS.maxNumberDigits;
  const spoken = (value: string | bigint | number) =>
    [...String(value)]
      .map((c) =>
        /\d/.test(c)
          ? numbers.cardinal(Number(c))
          : c === '.'
            ? WORDS[lang].point
            : c === '-'
              ? WORDS[lang].minus
              : c,
      )
      .join(' ');
  return {
    locale: numbers.locale,
    cardinal: (value) => (long(value) ? spoken(value) : numbers.cardinal(value)),
    ordinal: (value) => (long(value) ? spoken(value) : numbers.ordinal(value)),
  };
}

function words(text: string): Normalised {
  return { kind: 'words', text: text.replace(/\s+/g, ' ').trim() };
}

function digitWord(digit: string, numbers: NumberWords | undefined): string {
  return numbers ? numbers.cardinal(Number(digit)) : digit;
}

/** Reads a number written with the language's separators ("1,234.5" / "1.234,5" / "1 234"). */
function parseNumber(raw: string, lang: Lang): string | undefined {
  let s = raw.replace(/[\s\u00a0\u202f_']/g, '');
  if (DECIMAL_COMMA.has(lang)) {
    // "1.234,5" groups with dots; "2.5" (no comma, not groups of three) is a decimal point.
    const grouped = /^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(s) || s.includes(',');
    s = grouped ? s.replaceAll('.', '').replace(',', '.') : s;
  } else s = s.replaceAll(',', '');
  s = s.replace(/^\+/, '');
  return /^-?\d+(\.\d+)?$/.test(s) ? s : undefined;
}

function cardinalText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const value = parseNumber(raw, lang);
  if (value === undefined || !numbers) return raw;
  return numbers.cardinal(value);
}

function ordinalText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  // 1st, 2nd, 3.,  1er, 2e, 1º, 3ª, 3rd …
  const match = /^(\d+)\s*(?:st|nd|rd|th|\.|er|re|e|ème|eme|º|ª|o|a|°)?$/i.exec(raw.trim());
  if (!match?.[1] || !numbers || Number(match[1]) === 0) return cardinalText(raw, lang, numbers);
  const ordinal = numbers.ordinal(match[1]);
  return lang === 'es' && /ª|a$/.test(raw) ? ordinal.replace(/o\b/g, 'a') : ordinal;
}

function digitsText(raw: string, numbers: NumberWords | undefined): string {
  return [...raw]
    .filter((c) => /\S/.test(c))
    .map((c) => (/\d/.test(c) ? digitWord(c, numbers) : c))
    .join(' ');
}

function spell(raw: string, numbers: NumberWords | undefined): string {
  return [...raw]
    .filter((c) => /\S/.test(c))
    .map((c) => (/\d/.test(c) ? digitWord(c, numbers) : c))
    .join(' ');
}

const FRACTION_DENOMINATORS: Record<Exclude<Lang, 'other'>, Record<number, [string, string]>> = {
  en: { 2: ['half', 'halves'], 4: ['quarter', 'quarters'] },
  fr: { 2: ['demi', 'demis'], 3: ['tiers', 'tiers'], 4: ['quart', 'quarts'] },
  de: { 2: ['halb', 'halbe'], 3: ['Drittel', 'Drittel'], 4: ['Viertel', 'Viertel'] },
  es: { 2: ['medio', 'medios'], 3: ['tercio', 'tercios'], 4: ['cuarto', 'cuartos'] },
};

function fractionText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const match = /^(?:(\d+)\s+)?(\d+)\s*\/\s*(\d+)$/.exec(raw.trim());
  if (!match || !numbers || lang === 'other') {
    return raw.replace('/', ` ${WORDS[lang].over} `);
  }
  const [, whole, numText = '0', denText = '1'] = match;
  const num = Number(numText);
  const den = Number(denText);
  const plural = num !== 1;
  const numWords = numbers.cardinal(num);
  let denWords: string;
  const special = FRACTION_DENOMINATORS[lang][den];
  if (special) denWords = plural ? special[1] : special[0];
  else if (lang === 'en') denWords = numbers.ordinal(den) + (plural ? 's' : '');
  else if (lang === 'fr') denWords = numbers.ordinal(den) + (plural ? 's' : '');
  else if (lang === 'de') {
    // German: Fünftel, Zwanzigstel: the cardinal plus -tel (< 20) or -stel.
    const base = numbers
      .cardinal(den)
      .replace(/^sieben$/, 'sieb')
      .replace(/s$/, '');
    const suffix = den < 20 ? (base.endsWith('t') ? 'el' : 'tel') : 'stel';
    denWords = capitalise(`${base}${suffix}`);
  } else {
    // Spanish: quinto … décimo, then the cardinal plus -avo.
    denWords =
      den <= 10
        ? numbers.ordinal(den) + (plural ? 's' : '')
        : `${numbers.cardinal(den).replace(/[aeo]$/, '')}avo${plural ? 's' : ''}`;
  }
  const fraction = `${numWords} ${denWords}`;
  if (!whole) return fraction;
  if (num === 1 && den === 2) return MIXED_HALF[lang](numbers.cardinal(whole), Number(whole));
  return `${numbers.cardinal(whole)} ${WORDS[lang].and} ${fraction}`;
}

/** "1 1/2" is said "one and a half", "un et demi", "eineinhalb", "uno y medio". */
const MIXED_HALF: Record<Exclude<Lang, 'other'>, (whole: string, value: number) => string> = {
  en: (whole) => `${whole} and a half`,
  fr: (whole) => `${whole} et demi`,
  de: (whole, value) => `${value === 1 ? 'ein' : whole}einhalb`,
  es: (whole) => `${whole} y medio`,
};

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function monthName(month: number, language: string): string {
  const locale = langOf(language) === 'other' ? language : langOf(language);
  try {
    return new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2000, month - 1, 1)),
    );
  } catch {
    return String(month);
  }
}

function yearWords(year: number, lang: Lang, numbers: NumberWords): string {
  if (lang === 'en' && year >= 1100 && year <= 9999 && !(year >= 2000 && year <= 2009)) {
    // English reads years in pairs: nineteen eighty-four, twenty twenty-four, nineteen hundred.
    const high = Math.floor(year / 100);
    const low = year % 100;
    if (low === 0) return `${numbers.cardinal(high)} hundred`;
    return `${numbers.cardinal(high)} ${low < 10 ? `oh ${numbers.cardinal(low)}` : numbers.cardinal(low)}`;
  }
  return numbers.cardinal(year);
}

/**
 * Dates: `format` is the order of the fields (SSML say-as note: mdy, dmy, ymd, md, dm, ym, my,
 * y, m, d). Without it ISO (2024-03-15) is read as ymd and slashed dates follow the language
 * (mdy in English, dmy elsewhere).
 */
function dateText(
  raw: string,
  format: string | undefined,
  lang: Lang,
  language: string,
  numbers: NumberWords | undefined,
): string {
  const parts = raw.split(/[-/.\s]+/).filter(Boolean);
  if (!numbers || parts.some((p) => !/^\d+$/.test(p))) return raw;
  let order = (
    format ?? (/^\d{4}-/.test(raw) ? 'ymd' : lang === 'en' ? 'mdy' : 'dmy')
  ).toLowerCase();
  // Without a format, an English 15/03/2024 can only be day first.
  if (!format && order === 'mdy' && Number(parts[0]) > 12) order = 'dmy';
  if (order.length !== parts.length || /[^dmy]/.test(order)) return raw;
  const field = (c: string) => {
    const index = order.indexOf(c);
    return index < 0 ? undefined : Number(parts[index]);
  };
  const day = field('d');
  const month = field('m');
  const year = field('y');
  if (month !== undefined && (month < 1 || month > 12)) return raw;
  if (day !== undefined && (day < 1 || day > 31)) return raw;
  const monthWord = month === undefined ? undefined : monthName(month, language);
  const yearWord = year === undefined ? undefined : yearWords(year, lang, numbers);
  const out: string[] = [];
  switch (lang) {
    case 'en':
      if (monthWord) out.push(monthWord);
      if (day !== undefined) out.push(numbers.ordinal(day));
      if (yearWord) out.push(yearWord);
      break;
    case 'fr':
      if (day !== undefined) out.push('le', day === 1 ? 'premier' : numbers.cardinal(day));
      if (monthWord) out.push(monthWord);
      if (yearWord) out.push(yearWord);
      break;
    case 'de':
      if (day !== undefined) out.push(`${numbers.ordinal(day)}r`);
      if (monthWord) out.push(monthWord);
      if (yearWord) out.push(yearWord);
      break;
    case 'es':
      if (day !== undefined) out.push(day === 1 ? 'primero' : numbers.cardinal(day));
      if (monthWord) out.push(day !== undefined ? `de ${monthWord}` : monthWord);
      if (yearWord) out.push(`de ${yearWord}`);
      break;
    default:
      if (day !== undefined) out.push(numbers.cardinal(day));
      if (monthWord) out.push(monthWord);
      if (yearWord) out.push(yearWord);
  }
  return out.join(' ');
}

function timeText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const match = /^(\d{1,2})(?::|h|\.)(\d{2})?(?::(\d{2}))?\s*([ap])?\.?\s*m?\.?$/i.exec(raw.trim());
  if (!match || !numbers) return raw;
  const clock = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  const second = match[3] === undefined ? undefined : Number(match[3]);
  const meridiem = match[4]?.toLowerCase();
  // Other languages say the 24-hour time: 2:30 pm is "quatorze heures trente".
  const hour =
    lang !== 'en' && meridiem === 'p' && clock < 12
      ? clock + 12
      : lang !== 'en' && meridiem === 'a' && clock === 12
        ? 0
        : clock;
  if (hour > 24 || minute > 59 || (second ?? 0) > 59) return raw;
  const h = numbers.cardinal(hour);
  const m = numbers.cardinal(minute);
  const s = second === undefined ? '' : numbers.cardinal(second);
  switch (lang) {
    case 'en': {
      let text =
        minute === 0
          ? meridiem
            ? h
            : `${h} ${WORDS.en.oclock}`
          : minute < 10
            ? `${h} oh ${m}`
            : `${h} ${m}`;
      if (second !== undefined) text += ` and ${s} seconds`;
      if (meridiem) text += ` ${meridiem} m`;
      return text;
    }
    case 'fr': {
      const hourWord = hour <= 1 ? 'heure' : 'heures';
      const base = `${hour === 1 ? 'une' : h} ${hourWord}${minute ? ` ${m}` : ''}`;
      return second === undefined ? base : `${base} et ${s} secondes`;
    }
    case 'de': {
      const base = `${hour === 1 ? 'ein' : h} Uhr${minute ? ` ${m}` : ''}`;
      return second === undefined ? base : `${base} und ${s} Sekunden`;
    }
    case 'es': {
      const base = `${hour === 1 ? 'la una' : `las ${h}`}${minute ? ` y ${m}` : ` ${WORDS.es.oclock}`}`;
      return second === undefined ? base : `${base} y ${s} segundos`;
    }
    default:
      return raw;
  }
}

/** Telephone numbers are read digit by digit, with a short pause between groups. */
function telephoneText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const groups = raw
    .trim()
    .split(/[\s\-.()/]+/)
    .filter(Boolean);
  return groups
    .map((group) => {
      const plus = group.startsWith('+') ? `${WORDS[lang].plus} ` : '';
      const digits = group.replace(/^\+/, '');
      return plus + [...digits].map((c) => (/\d/.test(c) ? digitWord(c, numbers) : c)).join(' ');
    })
    .join(', ');
}

const ADDRESS_ABBREVIATIONS: Record<Exclude<Lang, 'other'>, Record<string, string>> = {
  en: {
    st: 'Street',
    ave: 'Avenue',
    av: 'Avenue',
    rd: 'Road',
    blvd: 'Boulevard',
    dr: 'Drive',
    ln: 'Lane',
    ct: 'Court',
    pl: 'Place',
    sq: 'Square',
    hwy: 'Highway',
    apt: 'Apartment',
    ste: 'Suite',
    fl: 'Floor',
    n: 'North',
    s: 'South',
    e: 'East',
    w: 'West',
    ne: 'North East',
    nw: 'North West',
    se: 'South East',
    sw: 'South West',
    no: 'Number',
  },
  fr: {
    bd: 'boulevard',
    bld: 'boulevard',
    av: 'avenue',
    ave: 'avenue',
    r: 'rue',
    pl: 'place',
    imp: 'impasse',
    ch: 'chemin',
    rte: 'route',
    apt: 'appartement',
    bis: 'bis',
    cedex: 'cédex',
  },
  de: {
    str: 'Straße',
    pl: 'Platz',
    nr: 'Nummer',
    hausnr: 'Hausnummer',
    weg: 'Weg',
    allee: 'Allee',
  },
  es: {
    c: 'calle',
    avda: 'avenida',
    av: 'avenida',
    pza: 'plaza',
    pl: 'plaza',
    nº: 'número',
    no: 'número',
    núm: 'número',
    num: 'número',
    piso: 'piso',
    dcha: 'derecha',
    izq: 'izquierda',
    izqda: 'izquierda',
    ctra: 'carretera',
  },
};

function addressText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const table = lang === 'other' ? {} : ADDRESS_ABBREVIATIONS[lang];
  // German street names end in "str." (Hauptstr.): the suffix is "straße".
  const text = lang === 'de' ? raw.replace(/(\p{L})str\.(?=\s|,|$)/gu, '$1straße') : raw;
  return text
    .replace(/(\S+?)(\.|\/)?(?=[\s,]|$)/gu, (token, word: string, mark: string | undefined) => {
      const expansion = (table as Record<string, string>)[word.toLowerCase()];
      if (expansion && (mark || word.length > 1 || word === word.toUpperCase())) return expansion;
      if (/^\d+$/.test(word) && numbers) return numbers.cardinal(word) + (mark ?? '');
      return token;
    })
    .replace(/\s*,\s*/g, ', ');
}

/** [symbol, en singular, en plural, fr, fr plural, de, de plural, es, es plural] */
const UNITS: readonly (readonly [string, ...string[]])[] = [
  [
    'km/h',
    'kilometre per hour',
    'kilometres per hour',
    'kilomètre heure',
    'kilomètres heure',
    'Kilometer pro Stunde',
    'Kilometer pro Stunde',
    'kilómetro por hora',
    'kilómetros por hora',
  ],
  [
    'mph',
    'mile per hour',
    'miles per hour',
    'mile par heure',
    'miles par heure',
    'Meile pro Stunde',
    'Meilen pro Stunde',
    'milla por hora',
    'millas por hora',
  ],
  [
    'm/s',
    'metre per second',
    'metres per second',
    'mètre par seconde',
    'mètres par seconde',
    'Meter pro Sekunde',
    'Meter pro Sekunde',
    'metro por segundo',
    'metros por segundo',
  ],
  [
    'kg',
    'kilogram',
    'kilograms',
    'kilogramme',
    'kilogrammes',
    'Kilogramm',
    'Kilogramm',
    'kilogramo',
    'kilogramos',
  ],
  [
    'mg',
    'milligram',
    'milligrams',
    'milligramme',
    'milligrammes',
    'Milligramm',
    'Milligramm',
    'miligramo',
    'miligramos',
  ],
  ['g', 'gram', 'grams', 'gramme', 'grammes', 'Gramm', 'Gramm', 'gramo', 'gramos'],
  ['lb', 'pound', 'pounds', 'livre', 'livres', 'Pfund', 'Pfund', 'libra', 'libras'],
  ['oz', 'ounce', 'ounces', 'once', 'onces', 'Unze', 'Unzen', 'onza', 'onzas'],
  [
    'km',
    'kilometre',
    'kilometres',
    'kilomètre',
    'kilomètres',
    'Kilometer',
    'Kilometer',
    'kilómetro',
    'kilómetros',
  ],
  [
    'cm',
    'centimetre',
    'centimetres',
    'centimètre',
    'centimètres',
    'Zentimeter',
    'Zentimeter',
    'centímetro',
    'centímetros',
  ],
  [
    'mm',
    'millimetre',
    'millimetres',
    'millimètre',
    'millimètres',
    'Millimeter',
    'Millimeter',
    'milímetro',
    'milímetros',
  ],
  ['m', 'metre', 'metres', 'mètre', 'mètres', 'Meter', 'Meter', 'metro', 'metros'],
  ['mi', 'mile', 'miles', 'mile', 'miles', 'Meile', 'Meilen', 'milla', 'millas'],
  ['ft', 'foot', 'feet', 'pied', 'pieds', 'Fuß', 'Fuß', 'pie', 'pies'],
  ['in', 'inch', 'inches', 'pouce', 'pouces', 'Zoll', 'Zoll', 'pulgada', 'pulgadas'],
  [
    'ml',
    'millilitre',
    'millilitres',
    'millilitre',
    'millilitres',
    'Milliliter',
    'Milliliter',
    'mililitro',
    'mililitros',
  ],
  ['l', 'litre', 'litres', 'litre', 'litres', 'Liter', 'Liter', 'litro', 'litros'],
  [
    '°C',
    'degree Celsius',
    'degrees Celsius',
    'degré Celsius',
    'degrés Celsius',
    'Grad Celsius',
    'Grad Celsius',
    'grado centígrado',
    'grados centígrados',
  ],
  [
    '°F',
    'degree Fahrenheit',
    'degrees Fahrenheit',
    'degré Fahrenheit',
    'degrés Fahrenheit',
    'Grad Fahrenheit',
    'Grad Fahrenheit',
    'grado Fahrenheit',
    'grados Fahrenheit',
  ],
  [
    '%',
    'percent',
    'percent',
    'pour cent',
    'pour cent',
    'Prozent',
    'Prozent',
    'por ciento',
    'por ciento',
  ],
  [
    'ms',
    'millisecond',
    'milliseconds',
    'milliseconde',
    'millisecondes',
    'Millisekunde',
    'Millisekunden',
    'milisegundo',
    'milisegundos',
  ],
  ['s', 'second', 'seconds', 'seconde', 'secondes', 'Sekunde', 'Sekunden', 'segundo', 'segundos'],
  ['min', 'minute', 'minutes', 'minute', 'minutes', 'Minute', 'Minuten', 'minuto', 'minutos'],
  ['h', 'hour', 'hours', 'heure', 'heures', 'Stunde', 'Stunden', 'hora', 'horas'],
  [
    'kHz',
    'kilohertz',
    'kilohertz',
    'kilohertz',
    'kilohertz',
    'Kilohertz',
    'Kilohertz',
    'kilohercio',
    'kilohercios',
  ],
  ['Hz', 'hertz', 'hertz', 'hertz', 'hertz', 'Hertz', 'Hertz', 'hercio', 'hercios'],
  [
    'GB',
    'gigabyte',
    'gigabytes',
    'gigaoctet',
    'gigaoctets',
    'Gigabyte',
    'Gigabyte',
    'gigabyte',
    'gigabytes',
  ],
  [
    'MB',
    'megabyte',
    'megabytes',
    'mégaoctet',
    'mégaoctets',
    'Megabyte',
    'Megabyte',
    'megabyte',
    'megabytes',
  ],
  [
    'kB',
    'kilobyte',
    'kilobytes',
    'kilooctet',
    'kilooctets',
    'Kilobyte',
    'Kilobyte',
    'kilobyte',
    'kilobytes',
  ],
  [
    'kW',
    'kilowatt',
    'kilowatts',
    'kilowatt',
    'kilowatts',
    'Kilowatt',
    'Kilowatt',
    'kilovatio',
    'kilovatios',
  ],
  ['W', 'watt', 'watts', 'watt', 'watts', 'Watt', 'Watt', 'vatio', 'vatios'],
  ['V', 'volt', 'volts', 'volt', 'volts', 'Volt', 'Volt', 'voltio', 'voltios'],
  ['A', 'ampere', 'amperes', 'ampère', 'ampères', 'Ampere', 'Ampere', 'amperio', 'amperios'],
];

const UNIT_COLUMN: Record<Exclude<Lang, 'other'>, number> = { en: 1, fr: 3, de: 5, es: 7 };

function unitText(raw: string, lang: Lang, numbers: NumberWords | undefined): string {
  const match = /^(-?[\d.,\s]*\d)\s*(.+)$/.exec(raw.trim());
  if (!match?.[1] || !match[2]) return raw;
  const amountText = match[1];
  const symbol = match[2].trim();
  const amount = cardinalText(amountText, lang, numbers);
  const row =
    UNITS.find((u) => u[0] === symbol) ??
    UNITS.find((u) => u[0].toLowerCase() === symbol.toLowerCase());
  if (!row || lang === 'other') return `${amount} ${symbol}`;
  const value = Number(parseNumber(amountText, lang) ?? Number.NaN);
  const plural = !(Math.abs(value) === 1);
  const column = UNIT_COLUMN[lang] + (plural ? 1 : 0);
  const name = row[column] ?? symbol;
  if (Math.abs(value) === 1 && value > 0) {
    const one = { en: 'one', fr: 'un', de: 'ein', es: 'un' }[lang];
    return `${one} ${name}`;
  }
  return `${amount} ${name}`;
}
