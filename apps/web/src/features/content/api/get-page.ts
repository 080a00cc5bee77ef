import { type PageContent, PageContentSchema } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /content/pages/{language}/{page} (SPEC §7): a page's sections and its translations. */
export function getPage(language: string, page: string): Promise<PageContent> {
  return api.get(`/content/pages/${encodeURIComponent(language)}/${encodeURIComponent(page)}`, {
    schema: PageContentSchema,
  });
}

export function pageQueryOptions(language: string, page: string) {
  return queryOptions({
    queryKey: ['content', 'page', language, page],
    queryFn: () => getPage(language, page),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
