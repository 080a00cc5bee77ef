import { ALL_TAGS, type BlogArticleSummary } from '@parla/contract';

/** SPEC §9 "Recent articles: 3". */
export const RECENT_ARTICLES = 3;

/** The articles a ?tag= filter keeps; 'All' (the default) keeps them all. */
export function filterByTag<T extends Pick<BlogArticleSummary, 'tags'>>(
  articles: T[],
  tag: string,
): T[] {
  if (tag === ALL_TAGS) return articles;
  const wanted = tag.toLowerCase();
  return articles.filter((article) => article.tags.some((own) => own.toLowerCase() === wanted));
}

/** The newest articles first, at most `count`. */
export function recentArticles<T extends Pick<BlogArticleSummary, 'published_time'>>(
  articles: T[],
  count = RECENT_ARTICLES,
): T[] {
  return [...articles]
    .sort((a, b) => b.published_time.localeCompare(a.published_time))
    .slice(0, count);
}

/** Every tag once, the most used first (ties in alphabetical order). */
export function tagsByUse(articles: Pick<BlogArticleSummary, 'tags'>[]): string[] {
  const counts = new Map<string, number>();
  for (const article of articles) {
    for (const tag of article.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([tag]) => tag);
}

/** The blog list filtered by a tag: /blog?tag=SSML (the language prefix is added by the caller). */
export function tagLink(tag: string): string {
  return tag === ALL_TAGS ? '/blog' : `/blog?tag=${encodeURIComponent(tag)}`;
}
