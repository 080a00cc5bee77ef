import { lazyWords } from '../lib/lazy-words';

/**
 * The words of the plan comparison, the documents form's drop zone and the convertor's
 * suggestions after a cut (issue 33 items 6 and 7), namespace `pages`: a chunk per language of
 * their own, loaded with them (lib/lazy-words.ts), never with the convertor's first load.
 */
const words = lazyWords('pages', {
  en: () => import('../locales/pages/en.json'),
  fr: () => import('../locales/pages/fr.json'),
  de: () => import('../locales/pages/de.json'),
  es: () => import('../locales/pages/es.json'),
  ar: () => import('../locales/pages/ar.json'),
});

/** `t` of the `pages` words in the page's language, and whether they are there yet. */
export const usePageWords = words.useWords;
