import {
  type BlogArticle,
  type BlogArticleSummary,
  type ContentLanguage,
  type PageContent,
  type PageListItem,
  type PageSection,
  withLanguagePrefix,
} from '@parla/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type {
  ContentArticlesTable,
  ContentLanguagesTable,
  ContentPagesTable,
} from '../../db/schema.js';
import type { RedisClients } from '../../lib/redis.js';
import { createSharedCache, type SharedCache } from '../../lib/shared-cache.js';
import { sanitizeArticleHtml } from './markdown.js';

export type LanguageRow = Selectable<ContentLanguagesTable>;
export type PageRow = Selectable<ContentPagesTable>;
export type ArticleRow = Selectable<ContentArticlesTable>;

/** Everything visitors may see: small enough to keep whole in every server's memory. */
export interface PublishedContent {
  languages: LanguageRow[];
  pages: PageRow[];
  articles: ArticleRow[];
}

export type ContentStore = SharedCache<PublishedContent>;

/** Read again at once after a publication (here, and on the others by message on Redis). */
const CONTENT_TTL_MS = 60_000;

/**
 * The published content every server keeps in memory (decision 054): read again when the
 * console publishes (with Redis, every server on its message), and at the latest after a minute.
 */
export function createContentStore(
  db: Db,
  options: { redis?: RedisClients | undefined; prefix?: string; ttlMs?: number } = {},
): ContentStore {
  return createSharedCache(
    async () => {
      const [languages, pages, articles] = await Promise.all([
        db.selectFrom('content_languages').selectAll().orderBy('position').execute(),
        db.selectFrom('content_pages').selectAll().orderBy('position').orderBy('slug').execute(),
        db
          .selectFrom('content_articles')
          .selectAll()
          .orderBy('published_time', 'desc')
          .orderBy('slug')
          .execute(),
      ]);
      return { languages, pages, articles };
    },
    {
      topic: 'content',
      ttlMs: options.ttlMs ?? CONTENT_TTL_MS,
      redis: options.redis,
      ...(options.prefix && { prefix: options.prefix }),
    },
  );
}

export const articleLink = (language: string, slug: string) =>
  withLanguagePrefix(language, `/blog/article/${slug}`);
export const pageLink = (language: string, slug: string) =>
  withLanguagePrefix(language, `/${slug}`);

/** Routes that exist under a language prefix (SPEC §2); the auth and account screens do not. */
const LOCALISED_ROOTS = [
  '/convertor',
  '/pricing',
  '/contact',
  '/privacy-policy',
  '/terms-of-services',
  '/blog',
];
const localisedLink = (language: string, link: string) =>
  LOCALISED_ROOTS.some((root) => link === root || link.startsWith(`${root}/`))
    ? withLanguagePrefix(language, link)
    : link;

const toLanguage = (row: Pick<LanguageRow, 'name' | 'code'>): ContentLanguage => ({
  name: row.name,
  code: row.code,
});

function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Reads of the published content (documents.ts writes it), from the store's memory. */
export function createContentRepository(store: Pick<ContentStore, 'get'>) {
  async function languages(): Promise<LanguageRow[]> {
    return (await store.get()).languages;
  }

  async function language(code: string): Promise<LanguageRow | undefined> {
    return (await languages()).find((row) => row.code === code);
  }

  /** Languages that have at least one page or article, in the offered order. */
  async function languagesWith(table: 'pages' | 'articles') {
    const content = await store.get();
    const codes = new Set(content[table].map((row) => row.language));
    return content.languages.filter((row) => codes.has(row.code));
  }

  function summary(row: ArticleRow, names: Map<string, LanguageRow>, siblings: ArticleRow[]) {
    const own = names.get(row.language);
    const translations = siblings
      .filter((sibling) => sibling.translation_key === row.translation_key)
      .sort(
        (a, b) => (names.get(a.language)?.position ?? 0) - (names.get(b.language)?.position ?? 0),
      )
      .map((sibling) => ({
        name: names.get(sibling.language)?.name ?? sibling.language,
        code: sibling.language,
        link: articleLink(sibling.language, sibling.slug),
        switched: sibling.language === row.language,
      }));
    const article: BlogArticleSummary = {
      title: row.title,
      link: articleLink(row.language, row.slug),
      preview: row.preview,
      tags: parseJson<string[]>(row.tags),
      language: { name: own?.name ?? row.language, code: row.language },
      translations,
      published_time: row.published_time,
      modified_time: row.modified_time,
      words_count: row.words_count,
      time_to_read: row.time_to_read,
      is_on_main_page: row.is_on_main_page === 1,
      cover: row.cover_image ? { src: row.cover_image, alt: row.cover_alt ?? '' } : null,
    };
    return article;
  }

  async function languageMap() {
    return new Map((await languages()).map((row) => [row.code, row]));
  }

  return {
    languages,
    language,
    toLanguage,

    async pageLanguages(): Promise<ContentLanguage[]> {
      return (await languagesWith('pages')).map(toLanguage);
    },

    async blogLanguages(): Promise<ContentLanguage[]> {
      return (await languagesWith('articles')).map(toLanguage);
    },

    /** The pages of a language for the page list, plus its templates when asked. */
    async pageList(code: string, withTemplates: boolean): Promise<PageListItem[]> {
      const rows = (await store.get()).pages.filter((row) => row.language === code);
      const pages = rows.map((row) => ({
        category: row.category,
        title: row.title,
        link: pageLink(row.language, row.slug),
      }));
      if (!withTemplates) return pages;
      const row = await language(code);
      const templates = row ? parseJson<PageListItem[]>(row.templates) : [];
      return [
        ...pages,
        ...templates.map((item) => ({ ...item, link: localisedLink(code, item.link) })),
      ];
    },

    async page(
      code: string,
      slug: string,
    ): Promise<(PageContent & { title: string; description: string }) | undefined> {
      const all = (await store.get()).pages;
      const row = all.find((page) => page.language === code && page.slug === slug);
      if (!row) return undefined;
      const names = await languageMap();
      const present = new Set(all.filter((other) => other.slug === slug).map((o) => o.language));
      const sections = parseJson<PageSection[]>(row.sections).map((section) => ({
        ...section,
        tags: section.tags.map((tag) =>
          tag.type === 'html' && tag.content
            ? { ...tag, content: sanitizeArticleHtml(tag.content) }
            : tag,
        ),
      }));
      return {
        title: row.title,
        description: row.description,
        translations: [...names.values()]
          .filter((candidate) => present.has(candidate.code))
          .map((candidate) => ({
            name: candidate.name,
            code: candidate.code,
            link: pageLink(candidate.code, slug),
          })),
        language: toLanguage(names.get(code) ?? { name: code, code }),
        link: pageLink(code, slug),
        sections,
      };
    },

    /** Every page of every language (sitemap.xml). */
    async allPages() {
      return (await store.get()).pages;
    },

    /** The articles of a language, newest first, without their bodies. */
    async articles(code: string): Promise<BlogArticleSummary[]> {
      const all = (await store.get()).articles;
      const rows = all.filter((row) => row.language === code);
      if (rows.length === 0) return [];
      const keys = new Set(rows.map((row) => row.translation_key));
      const siblings = all.filter((row) => keys.has(row.translation_key));
      const names = await languageMap();
      return rows.map((row) => summary(row, names, siblings));
    },

    /** One article with its body, sanitised again on the way out. */
    async article(code: string, slug: string): Promise<BlogArticle | undefined> {
      const all = (await store.get()).articles;
      const row = all.find((article) => article.language === code && article.slug === slug);
      if (!row) return undefined;
      const siblings = all.filter((article) => article.translation_key === row.translation_key);
      const names = await languageMap();
      return {
        ...summary(row, names, siblings),
        content: sanitizeArticleHtml(row.content_html),
      };
    },

    /** Every article of every language (sitemap.xml), newest first, with its translation group. */
    async allArticles() {
      return (await store.get()).articles;
    },
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
