import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useToken } from '../../../lib/auth';
import { lexiconQueryOptions, lexiconsQueryOptions, soundOf } from '../../../lib/lexicons';
import type { PronouncedMarks } from '../components/pronounced-words-plugin';
import type { PronouncedWord } from '../lib/pronounced';

/**
 * The entries of the lexicons a conversion from the editor applies, in the order it applies
 * them: the user's default lexicons (the convertor names none, so the server applies those),
 * for the editor to mark.
 */
export function usePronouncedWords(): PronouncedMarks | undefined {
  const { t } = useTranslation();
  const token = useToken();
  const list = useQuery(lexiconsQueryOptions(token));
  const defaults = (list.data?.lexicons ?? [])
    .filter((lexicon) => lexicon.default && lexicon.entries > 0)
    .sort((a, b) => (a.default_position ?? 0) - (b.default_position ?? 0));
  const lexicons = useQueries({
    queries: defaults.map((lexicon) => lexiconQueryOptions(lexicon.name, token)),
  });
  const loaded = lexicons.map((query) => query.data);
  const stamp = loaded.map((lexicon) => `${lexicon?.name}@${lexicon?.updated_at}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stamp` says when the entries changed.
  return useMemo(() => {
    const words: PronouncedWord[] = loaded.flatMap((lexicon) =>
      (lexicon?.entries ?? []).map((entry) => ({ ...entry, lexicon: lexicon?.name ?? '' })),
    );
    if (words.length === 0) return undefined;
    return {
      words,
      describe: (word: PronouncedWord) =>
        t('pronunciation.marked', { sound: soundOf(word), lexicon: word.lexicon }),
    };
  }, [stamp, t]);
}
