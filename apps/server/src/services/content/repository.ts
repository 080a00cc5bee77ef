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
import type { ContentArticlesTable, ContentLanguagesTable } from '../../db/schema.js';
import { sanitizeArticleHtml } from './markdown.js';

export type LanguageRow = Selectable<ContentLanguagesTable>;
export type ArticleRow = Selectable<ContentArticlesTable>;

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

/** Reads of the seeded content (seed-repository.ts writes it). */
export function createContentRepository(db: Db) {
  async function languages(): Promise<LanguageRow[]> {
    return db.selectFrom('content_languages').selectAll().orderBy('position').execute();
  }

  async function language(code: string): Promise<LanguageRow | undefined> {
    return db
      .selectFrom('content_languages')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirst();
  }

  /** Languages that have at least one row in the table, in the offered order. */
  async function languagesWith(table: 'content_pages' | 'content_articles') {
    const used = await db.selectFrom(table).select('language').distinct().execute();
    const codes = new Set(used.map((row) => row.language));
    return (await languages()).filter((row) => codes.has(row.code));
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
      return (await languagesWith('content_pages')).map(toLanguage);
    },

    async blogLanguages(): Promise<ContentLanguage[]> {
      return (await languagesWith('content_articles')).map(toLanguage);
    },

    /** The pages of a language for the page list, plus its templates when asked. */
    async pageList(code: string, withTemplates: boolean): Promise<PageListItem[]> {
      const rows = await db
        .selectFrom('content_pages')
        .select(['slug', 'category', 'title', 'language'])
        .where('language', '=', code)
        .orderBy('position')
        .orderBy('slug')
        .execute();
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
      const row = await db
        .selectFrom('content_pages')
        .selectAll()
        .where('language', '=', code)
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (!row) return undefined;
      const names = await languageMap();
      const others = await db
        .selectFrom('content_pages')
        .select('language')
        .where('slug', '=', slug)
        .execute();
      const present = new Set(others.map((other) => other.language));
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
      return db.selectFrom('content_pages').select(['language', 'slug', 'updated_at']).execute();
    },

    /** The articles of a language, newest first, without their bodies. */
    async articles(code: string): Promise<BlogArticleSummary[]> {
      const rows = await db
        .selectFrom('content_articles')
        .selectAll()
        .where('language', '=', code)
        .orderBy('published_time', 'desc')
        .orderBy('slug')
        .execute();
      if (rows.length === 0) return [];
      const siblings = await db
        .selectFrom('content_articles')
        .selectAll()
        .where(
          'translation_key',
          'in',
          rows.map((row) => row.translation_key),
        )
        .execute();
      const names = await languageMap();
      return rows.map((row) => summary(row, names, siblings));
    },

    /** One article with its body, sanitised again on the way out. */
    async article(code: string, slug: string): Promise<BlogArticle | undefined> {
      const row = await db
        .selectFrom('content_articles')
        .selectAll()
        .where('language', '=', code)
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (!row) return undefined;
      const siblings = await db
        .selectFrom('content_articles')
        .selectAll()
        .where('translation_key', '=', row.translation_key)
        .execute();
      const names = await languageMap();
      return {
        ...summary(row, names, siblings),
        content: sanitizeArticleHtml(row.content_html),
      };
    },

    /** Every article of every language (sitemap.xml), with its translation group. */
    async allArticles() {
      return db
        .selectFrom('content_articles')
        .select(['language', 'slug', 'translation_key', 'modified_time', 'title'])
        .orderBy('published_time', 'desc')
        .execute();
    },
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
