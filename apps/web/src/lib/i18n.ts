import i18next, { type i18n } from 'i18next';
import type adminEn from '../locales/admin/en.json';
import type en from '../locales/en.json';
import type enLexicons from '../locales/lexicons/en.json';
import type enPages from '../locales/pages/en.json';
import { describeLanguage } from './languages';

/**
 * The words of the interface (issue 18 item 1), through i18next: each language of
 * SITE_LANGUAGES, English included, is one JSON chunk, loaded by the root route's loader
 * before the first page in it shows, so a visitor loads the words of their language only
 * (docs/decisions/015-ui-translation.md). The words of the pages other than the convertor
 * (account, sign-in, checkout, documents, file history…) are a second chunk of the same
 * namespace, loaded only on those pages, so the convertor's first load carries only its own
 * words (issue 33 item 9). English is the fallback of every key (a test keeps every language
 * complete). SPEC's messages (MESSAGES of @parla/contract) are never
 * translated: they stay word for word in English.
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    /**
     * `lexicons`: the pronunciation dialog's and page's words (hooks/use-lexicon-words.ts);
     * `admin`: the operator console's words, loaded by its own chunk (routes/admin).
     */
    resources: {
      translation: typeof en & typeof enPages;
      lexicons: typeof enLexicons;
      admin: typeof adminEn;
    };
  }
}

type Loader = () => Promise<{ default: unknown }>;

/** The translated languages by locale, each its own chunk: the convertor's and the layout's words. */
const LOADERS: Record<string, Loader> = {
  en: () => import('../locales/en.json'),
  fr: () => import('../locales/fr.json'),
  de: () => import('../locales/de.json'),
  es: () => import('../locales/es.json'),
  ar: () => import('../locales/ar.json'),
};

/** The words of the other pages, by locale, each its own chunk too. */
const PAGE_LOADERS: Record<string, Loader> = {
  en: () => import('../locales/pages/en.json'),
  fr: () => import('../locales/pages/fr.json'),
  de: () => import('../locales/pages/de.json'),
  es: () => import('../locales/pages/es.json'),
  ar: () => import('../locales/pages/ar.json'),
};

export const TRANSLATED_LOCALES = Object.keys(LOADERS);

function createRoot(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: {},
    initAsync: false,
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  // '{{tag, lowercase}}': a name inside a sentence, lower-cased the language's way (English
  // 'Insert pause'; German keeps its capital by not asking for it).
  instance.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) =>
    String(value).toLocaleLowerCase(lng),
  );
  // '{{count, number}}' with one Intl.NumberFormat per language: i18next's own keys its cache
  // on all of a call's values, so each new count built a new formatter (a tenth of the
  // convertor's first render went there).
  const numbers = new Map<string, Intl.NumberFormat>();
  instance.services.formatter?.add('number', (value: unknown, lng: string | undefined) => {
    const locale = lng ?? 'en';
    let format = numbers.get(locale);
    if (!format) {
      format = new Intl.NumberFormat(locale);
      numbers.set(locale, format);
    }
    return format.format(Number(value));
  });
  return instance;
}

/** The one resource store; per-language instances are clones sharing it. */
export const rootI18n = createRoot();

const clones = new Map<string, i18n>([['en', rootI18n]]);

/** The instance of a locale (English words where a key or the language is missing). */
export function i18nFor(locale: string): i18n {
  let instance = clones.get(locale);
  if (!instance) {
    instance = rootI18n.cloneInstance({ lng: locale, initAsync: false });
    clones.set(locale, instance);
  }
  return instance;
}

/** The chunks of words already added to the store, as `locale` or `locale/pages`. */
const loaded = new Set<string>();

async function loadWords(key: string, load: Loader): Promise<void> {
  if (loaded.has(key)) return;
  const words = (await load()).default as Record<string, unknown>;
  rootI18n.addResourceBundle(key.split('/')[0] as string, 'translation', words, true, true);
  loaded.add(key);
}

/**
 * Loads the words of a route language: its own, or English for a language the site does not
 * translate (English, the fallback, is loaded only where it is shown). `pages`: the words of
 * the pages other than the convertor too.
 */
export async function loadLanguage(code: string, { pages = true } = {}): Promise<void> {
  const { locale: own } = describeLanguage(code);
  const locale = LOADERS[own] ? own : 'en';
  await Promise.all([loadWords(locale, LOADERS[locale] as Loader), pages && loadPageWords(locale)]);
}

/** The other pages' words of a locale (i18next's language), or English's where it has none. */
export function loadPageWords(locale: string): Promise<void> {
  const own = PAGE_LOADERS[locale] ? locale : 'en';
  return loadWords(`${own}/pages`, PAGE_LOADERS[own] as Loader);
}

/** Whether the other pages' words of a locale are there. */
export const pageWordsLoaded = (locale: string): boolean =>
  loaded.has(`${PAGE_LOADERS[locale] ? locale : 'en'}/pages`);
