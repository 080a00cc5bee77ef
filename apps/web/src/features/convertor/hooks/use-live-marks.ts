import { MARKS_COMPLETE_HEADER, type SpeechMark, SpeechMarksSchema } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { resolveUrl } from '../../../lib/api-client';

/** How often the marks of a conversion still rendering are asked for again. */
const AGAIN_MS = 1000;

interface Marks {
  marks: SpeechMark[];
  /** The whole set (not only the words heard so far). */
  complete: boolean;
}

/**
 * The speech marks at a streamed conversion's `path` while it renders (issue 33 item 5): the
 * server answers those of the words heard so far, saying so in MARKS_COMPLETE_HEADER, and
 * they are asked for again until the set is whole, so that words are highlighted from the
 * first second. Undefined before the first answer, or without a `path`.
 */
export function useLiveMarks(path: string | null | undefined): SpeechMark[] | undefined {
  const query = useQuery<Marks>({
    queryKey: ['convertor', 'marks', path, 'live'],
    queryFn: async ({ signal }) => {
      // The convertor's marks address is public, like its audio; the API client's calls give
      // no headers, whose answer says whether the set is whole.
      const response = await fetch(resolveUrl(path ?? ''), { signal });
      if (!response.ok) throw new Error(response.statusText);
      return {
        marks: SpeechMarksSchema.parse(await response.json()),
        complete: response.headers.get(MARKS_COMPLETE_HEADER) !== 'false',
      };
    },
    enabled: Boolean(path),
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (now) => (now.state.data?.complete === false ? AGAIN_MS : false),
    retryDelay: 300,
  });
  return query.data?.marks;
}
