import { type PageContent, PageContentSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /content/pages/{language}/convertor (SPEC §7): the texts of the page's sections. */
export function getConvertorContent(language: string, signal?: AbortSignal): Promise<PageContent> {
  return api.get(`/content/pages/${encodeURIComponent(language)}/convertor`, {
    schema: PageContentSchema,
    signal,
  });
}

export function convertorContentQueryOptions(language: string) {
  return queryOptions({
    queryKey: ['content', 'page', language, 'convertor'],
    queryFn: ({ signal }) => getConvertorContent(language, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export function useConvertorContent(language: string) {
  return useQuery(convertorContentQueryOptions(language));
}
