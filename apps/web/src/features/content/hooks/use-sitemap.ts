import {
  type BlogArticleSummary,
  type ContentLanguage,
  DEFAULT_LANGUAGE,
  type PageListItem,
} from '@parla/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { getBlogList } from '../api/get-blog-list';
import { getPageList } from '../api/get-page-list';

/** SPEC §9 "sitemap reload 1000 ms". */
export const SITEMAP_RELOAD_MS = 1000;

export interface SitemapLanguage {
  language: ContentLanguage;
  pages: PageListItem[];
  articles: Pick<BlogArticleSummary, 'title' | 'link'>[];
}

const WITH_EVERYTHING = { translatedLanguages: true, currentTemplates: true } as const;

/** A language without articles answers 404: its Blog entry is then empty. */
async function articlesOf(code: string) {
  try {
    return (await getBlogList(code, false)).articles;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

async function loadLanguage(language: ContentLanguage): Promise<SitemapLanguage> {
  const [pages, articles] = await Promise.all([
    getPageList(language.code, { translatedLanguages: false, currentTemplates: true }),
    articlesOf(language.code),
  ]);
  return { language, pages: pages.pages, articles };
}

/**
 * SPEC §2 "Sitemap": staged loading. The default language first (with the list of languages),
 * then after 1 second all the languages are loaded again; `complete` is false until then.
 */
export function useSitemap() {
  const first = useQuery({
    retry: false,
    queryFn: async () => {
      const [list, articles] = await Promise.all([
        getPageList(DEFAULT_LANGUAGE, WITH_EVERYTHING),
        articlesOf(DEFAULT_LANGUAGE),
      ]);
      return { list, articles };
    },
    queryKey: ['content', 'sitemap', 'first'],
  });
  const [second, setSecond] = useState(false);
  useEffect(() => {
    if (!first.isSuccess) return;
    const timer = setTimeout(() => setSecond(true), SITEMAP_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [first.isSuccess]);

  const languages = first.data?.list.languages ?? [];
  const all = useQueries({
    queries: languages.map((language: ContentLanguage) => ({
      queryKey: ['content', 'sitemap', 'language', language.code],
      queryFn: () => loadLanguage(language),
      enabled: second,
      retry: false,
    })),
  });

  const complete = second && all.length > 0 && all.every((query) => !query.isPending);
  let sections: SitemapLanguage[] = [];
  if (complete) {
    sections = all.flatMap((query) => (query.data ? [query.data] : []));
  } else if (first.data) {
    const language = languages.find((candidate) => candidate.code === DEFAULT_LANGUAGE) ?? {
      name: 'English',
      code: DEFAULT_LANGUAGE,
    };
    sections = [{ language, pages: first.data.list.pages, articles: first.data.articles }];
  }
  return { sections, complete, failed: first.isError };
}
