import { compileLexicon, lexiconLanguageApplies } from '@parla/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { useToken } from '../../../lib/auth';
import { lexiconQueryOptions, lexiconsQueryOptions, soundOf } from '../../../lib/lexicons';
import type { PronouncedMarks } from '../components/pronounced-marks';

/**
 * The entries of the lexicons a conversion from the editor applies to a voice of `language`,
 * in the order it applies them: the user's default lexicons (the convertor names none, so the
 * server applies those), for the Text and SSML tabs to mark. Signed-in users only.
 */
export function usePronouncedWords(language: string | undefined): PronouncedMarks | undefined {
  const { t } = useLexiconWords();
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
    if (!language) return undefined;
    const entries = loaded
      .flatMap((lexicon) => (lexicon ? compileLexicon(lexicon) : []))
      .filter((compiled) => lexiconLanguageApplies(compiled.language, language));
    if (entries.length === 0) return undefined;
    return {
      entries,
      describe: (compiled) =>
        t('tool.marked', { sound: soundOf(compiled.entry), lexicon: compiled.lexicon }),
    };
  }, [stamp, language, t]);
}
