import { type BlogArticle, BlogArticleSchema } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /content/blog/article/{language}/{article} (SPEC §7): the body is sanitised HTML. */
export function getArticle(language: string, article: string): Promise<BlogArticle> {
  return api.get(
    `/content/blog/article/${encodeURIComponent(language)}/${encodeURIComponent(article)}`,
    { schema: BlogArticleSchema },
  );
}

export function articleQueryOptions(language: string, article: string) {
  return queryOptions({
    queryKey: ['content', 'article', language, article],
    queryFn: () => getArticle(language, article),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
