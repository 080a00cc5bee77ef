import { type SeoMeta, type SeoMetaQuery, SeoMetaSchema, seoMetaQueryFor } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { api } from '../lib/api-client';

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

/** Finds or creates `<meta {attribute}="{key}">` (the server writes them with data-seo). */
function setMeta(attribute: 'name' | 'property' | 'itemprop', key: string, content: string) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    element.dataset.seo = '';
    document.head.append(element);
  }
  element.content = content;
}

/** Writes the server's metadata into the head: the same elements the server rendered. */
export function applySeoMeta(meta: SeoMeta, url: string): void {
  document.title = meta.main.title;
  setMeta('name', 'description', meta.main.description);
  setMeta('property', 'og:type', meta.open_graph.type);
  setMeta('property', 'og:title', meta.open_graph.title);
  setMeta('property', 'og:description', meta.open_graph.description);
  setMeta('property', 'og:image', meta.open_graph.image);
  setMeta('property', 'og:image:alt', meta.open_graph.alt);
  setMeta('property', 'og:url', url);
  setMeta('name', 'twitter:title', meta.twitter.title);
  setMeta('name', 'twitter:description', meta.twitter.description);
  setMeta('name', 'twitter:image', meta.twitter.image);
  setMeta('name', 'twitter:image:alt', meta.twitter.alt);
  setMeta('itemprop', 'name', meta.microdata.title);
  setMeta('itemprop', 'description', meta.microdata.description);
  setMeta('itemprop', 'image', meta.microdata.image);
}

/**
 * SPEC §2 "Each page sets search-engine metadata from the SEO call": asks GET /seo/meta for the
 * current location (a ?tag= filter is reported as /blog) and writes the answer into the head.
 * Until it answers, the page's own title and description (usePageMeta) stand; the server has
 * written the same tags into the HTML it served (features/seo), for crawlers.
 */
export function useSeoMeta(enabled = true): void {
  const { pathname } = useLocation();
  const query = seoMetaQueryFor(pathname);
  const meta = useQuery({ ...seoMetaQueryOptions(query), enabled });
  useEffect(() => {
    if (meta.data) applySeoMeta(meta.data, window.location.origin + pathname);
  }, [meta.data, pathname]);
}
