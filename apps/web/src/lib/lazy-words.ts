import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rootI18n } from './i18n';

type Namespace = 'lexicons';
type Loaders = Record<string, () => Promise<{ default: unknown }>>;

/**
 * A namespace of words in a chunk per language of its own, loaded by the pages that show them,
 * so that the convertor's first load does not carry them (its budget, issue 18 item 5).
 * English's are loaded too: the fallback of every key.
 */
export function lazyWords<N extends Namespace>(namespace: N, loaders: Loaders) {
  const has = (locale: string) => rootI18n.hasResourceBundle(locale, namespace);

  async function loadOne(locale: string): Promise<void> {
    const load = loaders[locale];
    if (!load || has(locale)) return;
    const words = (await load()).default as Record<string, unknown>;
    rootI18n.addResourceBundle(locale, namespace, words, true, true);
  }

  /** Loads the words of a locale and of English. */
  async function load(locale: string): Promise<void> {
    await Promise.all([loadOne('en'), loadOne(locale)]);
  }

  const ready = (locale: string) => has('en') && (has(locale) || !loaders[locale]);

  /** `t` of the namespace's words in the page's language, and whether they are there yet. */
  function useWords() {
    const translation = useTranslation(namespace);
    return { ...translation, ready: useLoadedWords(translation.i18n.language, ready, load) };
  }

  return { load, useWords };
}

/**
 * Whether a chunk of words of `locale` is there (`ready`), loading it (`load`) when it is not
 * and rendering again once it is.
 */
export function useLoadedWords(
  locale: string,
  ready: (locale: string) => boolean,
  load: (locale: string) => Promise<void>,
): boolean {
  const [, setLoaded] = useState(() => ready(locale));
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ready` and `load` are module-level functions of the chunk.
  useEffect(() => {
    if (ready(locale)) return;
    let live = true;
    void load(locale).then(() => live && setLoaded(true));
    return () => {
      live = false;
    };
  }, [locale]);
  return ready(locale);
}
