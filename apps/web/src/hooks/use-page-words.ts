import { useTranslation } from 'react-i18next';
import { loadPageWords, pageWordsLoaded } from '../lib/i18n';
import { useLoadedWords } from '../lib/lazy-words';

/**
 * `t` for a component that shows words of the pages other than the convertor (locales/pages/,
 * lib/i18n.ts) wherever it is, and whether they are there yet: on those pages the route loaded
 * them before it showed; in the convertor (the cut notice's suggestion, issue 33 item 7) they
 * are loaded when the component first shows, never with the convertor's first load.
 */
export function usePageWords() {
  const translation = useTranslation();
  const locale = translation.i18n.language;
  return { ...translation, ready: useLoadedWords(locale, pageWordsLoaded, loadPageWords) };
}
