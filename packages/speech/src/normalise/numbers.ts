/**
 * Numbers to words through n2words (71 locales). A language code of the engine ("en-us",
 * "fr-fr", "de", "pt-br") is matched to the closest n2words locale; languages n2words lacks
 * keep their digits, which espeak-ng then reads in its own language.
 */

const LOCALES = [
  'am-ET',
  'ar-SA',
  'az-AZ',
  'bn-BD',
  'cs-CZ',
  'da-DK',
  'de-DE',
  'el-GR',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-US',
  'en-ZA',
  'es-ES',
  'es-MX',
  'es-US',
  'fa-IR',
  'fi-FI',
  'fil-PH',
  'fr-BE',
  'fr-FR',
  'gu-IN',
  'ha-NG',
  'he-IL',
  'hi-IN',
  'hr-HR',
  'hu-HU',
  'id-ID',
  'it-IT',
  'ja-JP',
  'ka-GE',
  'kn-IN',
  'ko-KR',
  'lt-LT',
  'lv-LV',
  'mr-IN',
  'ms-MY',
  'nb-NO',
  'nl-NL',
  'pa-IN',
  'pl-PL',
  'pt-PT',
  'ro-RO',
  'ru-RU',
  'sr-Latn-RS',
  'sv-SE',
  'sw-KE',
  'ta-IN',
  'te-IN',
  'th-TH',
  'tr-TR',
  'uk-UA',
  'ur-PK',
  'vi-VN',
  'yo-NG',
  'zh-Hans-CN',
] as const;
type Locale = (typeof LOCALES)[number];

/** Language subtags whose n2words locale has another name. */
const ALIASES: Record<string, Locale> = {
  no: 'nb-NO',
  nb: 'nb-NO',
  cmn: 'zh-Hans-CN',
  zh: 'zh-Hans-CN',
  yue: 'zh-Hans-CN',
  tl: 'fil-PH',
  fil: 'fil-PH',
  sr: 'sr-Latn-RS',
};

export interface NumberWords {
  locale: string;
  cardinal(value: string | bigint | number): string;
  ordinal(value: string | bigint | number): string;
}

interface N2WordsModule {
  toCardinal(value: number | string | bigint): string;
  toOrdinal(value: number | string | bigint): string;
}

export function localeFor(language: string): Locale | undefined {
  const [primary = '', region = ''] = language.toLowerCase().split('-');
  const candidates = LOCALES.filter((l) => l.toLowerCase().startsWith(`${primary}-`));
  const exact = candidates.find((l) => l.toLowerCase().endsWith(`-${region}`));
  return exact ?? candidates[0] ?? ALIASES[primary];
}

const cache = new Map<string, Promise<NumberWords | undefined>>();

export function numberWords(language: string): Promise<NumberWords | undefined> {
  const locale = localeFor(language);
  if (!locale) return Promise.resolve(undefined);
  let loaded = cache.get(locale);
  if (!loaded) {
    loaded = (import(`n2words/${locale}`) as Promise<N2WordsModule>).then((m) => ({
      locale,
      cardinal: (value) => m.toCardinal(value),
      ordinal: (value) => m.toOrdinal(value),
    }));
    cache.set(locale, loaded);
  }
  return loaded;
}
