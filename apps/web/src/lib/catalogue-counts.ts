import { VoicesResponseSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export interface CatalogueCounts {
  voices: number;
  languages: number;
}

/**
 * How many voices and languages the product really has (issue 18 item 6: never a claimed
 * number). THE one place the pages take their counts from (pricing cards, footer): today it
 * counts GET /convertor/voices; when the API answers the catalogue's own counts, only this
 * function changes.
 */
export async function getCatalogueCounts(signal?: AbortSignal): Promise<CatalogueCounts> {
  const languages = await api.get('/convertor/voices', { schema: VoicesResponseSchema, signal });
  return {
    languages: languages.length,
    voices: languages.reduce((sum, language) => sum + language.voices.length, 0),
  };
}

export function useCatalogueCounts() {
  return useQuery(
    queryOptions({
      queryKey: ['catalogue', 'counts'],
      queryFn: ({ signal }) => getCatalogueCounts(signal),
      staleTime: 5 * 60_000,
    }),
  );
}
