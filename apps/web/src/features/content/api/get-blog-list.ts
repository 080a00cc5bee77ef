import { type BlogList, BlogListSchema } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /content/blog/{language}?provides_translated_languages (SPEC §7): newest first. */
export function getBlogList(language: string, translatedLanguages: boolean): Promise<BlogList> {
  return api.get(`/content/blog/${encodeURIComponent(language)}`, {
    query: { provides_translated_languages: translatedLanguages },
    schema: BlogListSchema,
  });
}

export function blogListQueryOptions(language: string, translatedLanguages = false) {
  return queryOptions({
    queryKey: ['content', 'blog', language, translatedLanguages],
    queryFn: () => getBlogList(language, translatedLanguages),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
