import { lazyWords } from '../lib/lazy-words';

/**
 * The words of the pronunciation dialog and page (issue 32), namespace `lexicons`: a chunk per
 * language of their own, loaded with them (lib/lazy-words.ts).
 */
const words = lazyWords('lexicons', {
  en: () => import('../locales/lexicons/en.json'),
  fr: () => import('../locales/lexicons/fr.json'),
  de: () => import('../locales/lexicons/de.json'),
  es: () => import('../locales/lexicons/es.json'),
  ar: () => import('../locales/lexicons/ar.json'),
});

/** `t` of the `lexicons` words in the page's language, and whether they are there yet. */
export const useLexiconWords = words.useWords;
