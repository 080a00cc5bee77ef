import { queryOptions } from '@tanstack/react-query';
import { SITE_LANGUAGES } from '../../../lib/languages';
import { getBlogList } from './get-blog-list';

/**
 * Where an article lives in `language` when `slug` is the address of one of its translations
 * in another language. The bottom-left language switcher keeps the path and changes only the
 * prefix, so /fr/blog/article/what-is-ssml (the English slug) becomes the French article
 * /fr/blog/article/qu-est-ce-que-ssml. Undefined when no translation exists.
 */
export async function findArticleTranslation(
  language: string,
  slug: string,
): Promise<string | null> {
  for (const other of SITE_LANGUAGES) {
    if (other.code === language) continue;
    let articles: Awaited<ReturnType<typeof getBlogList>>['articles'];
    try {
      articles = (await getBlogList(other.code, false)).articles;
    } catch {
      continue;
    }
    const source = articles.find((article) => article.link.endsWith(`/blog/article/${slug}`));
    if (!source) continue;
    return source.translations.find((translation) => translation.code === language)?.link ?? null;
  }
  return null;
}

export function articleTranslationQueryOptions(language: string, slug: string) {
  return queryOptions({
    queryKey: ['content', 'article-translation', language, slug],
    queryFn: () => findArticleTranslation(language, slug),
    retry: false,
  });
}
