import { type BlogList, BlogListSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /content/blog/{language} (SPEC §7); the page shows the articles flagged for home. */
export function getBlogList(language: string, signal?: AbortSignal): Promise<BlogList> {
  return api.get(`/content/blog/${encodeURIComponent(language)}`, {
    schema: BlogListSchema,
    signal,
  });
}

export function useBlogTeasers(language: string) {
  return useQuery(
    queryOptions({
      queryKey: ['content', 'blog', language],
      queryFn: ({ signal }) => getBlogList(language, signal),
      staleTime: 5 * 60_000,
      retry: false,
      select: (list) => list.articles.filter((article) => article.is_on_main_page).slice(0, 3),
    }),
  );
}
