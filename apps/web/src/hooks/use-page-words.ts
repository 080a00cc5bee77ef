import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadPageWords, pageWordsLoaded } from '../lib/i18n';

/**
 * `t` for a component that shows words of the pages other than the convertor (locales/pages/,
 * lib/i18n.ts) wherever it is, and whether they are there yet: on those pages the route loaded
 * them before it showed; in the convertor (the cut notice's suggestion, issue 33 item 7) they
 * are loaded when the component first shows, never with the convertor's first load.
 */
export function usePageWords() {
  const translation = useTranslation();
  const locale = translation.i18n.language;
  const [, setLoaded] = useState(() => pageWordsLoaded(locale));
  useEffect(() => {
    if (pageWordsLoaded(locale)) return;
    let live = true;
    void loadPageWords(locale).then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [locale]);
  return { ...translation, ready: pageWordsLoaded(locale) };
}
