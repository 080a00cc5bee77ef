import { type SeoMeta, type SeoMetaQuery, SeoMetaSchema } from '@parla/contract';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /seo/meta?type&language&path (SPEC §7): title, description, Open Graph, Twitter, microdata. */
export function getSeoMeta(query: SeoMetaQuery): Promise<SeoMeta> {
  return api.get('/seo/meta', { query: { ...query }, schema: SeoMetaSchema });
}

export function seoMetaQueryOptions(query: SeoMetaQuery) {
  return queryOptions({
    queryKey: ['seo', 'meta', query.type, query.language, query.path],
    queryFn: () => getSeoMeta(query),
    staleTime: 5 * 60_000,
    retry: false,
  });
}
