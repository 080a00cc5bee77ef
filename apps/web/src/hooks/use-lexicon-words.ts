import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rootI18n } from '../lib/i18n';

/**
 * The words of the pronunciation dialog and page (issue 32), namespace `lexicons`: a chunk per
 * language of their own, loaded with them, so that the convertor's first load does not carry
 * them (its budget, issue 18 item 5). English's are loaded too: the fallback of every key.
 */
const LOADERS: Record<string, () => Promise<{ default: unknown }>> = {
  en: () => import('../locales/lexicons/en.json'),
  fr: () => import('../locales/lexicons/fr.json'),
  de: () => import('../locales/lexicons/de.json'),
  es: () => import('../locales/lexicons/es.json'),
  ar: () => import('../locales/lexicons/ar.json'),
};

const has = (locale: string) => rootI18n.hasResourceBundle(locale, 'lexicons');

async function loadOne(locale: string): Promise<void> {
  const load = LOADERS[locale];
  if (!load || has(locale)) return;
  const words = (await load()).default as Record<string, unknown>;
  rootI18n.addResourceBundle(locale, 'lexicons', words, true, true);
}

/** Loads the `lexicons` words of a locale and of English. */
export async function loadLexiconWords(locale: string): Promise<void> {
  await Promise.all([loadOne('en'), loadOne(locale)]);
}

const ready = (locale: string) => has('en') && (has(locale) || !LOADERS[locale]);

/** `t` of the `lexicons` words in the page's language, and whether they are there yet. */
export function useLexiconWords() {
  const translation = useTranslation('lexicons');
  const locale = translation.i18n.language;
  const [, setLoaded] = useState(() => ready(locale));
  useEffect(() => {
    if (ready(locale)) return;
    let live = true;
    void loadLexiconWords(locale).then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [locale]);
  return { ...translation, ready: ready(locale) };
}
