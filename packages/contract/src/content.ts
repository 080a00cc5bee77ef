import * as z from 'zod/mini';
import { BooleanQuerySchema, DateTimeSchema, SlugSchema } from './fields.js';
import { LanguageCodeSchema } from './language-prefix.js';

/** A language as content answers name it: { name: 'French', code: 'fr' }. */
export const ContentLanguageSchema = z.object({ name: z.string(), code: z.string() });
export type ContentLanguage = z.infer<typeof ContentLanguageSchema>;

/** Another language of the same page or article, and where it lives. */
export const TranslationSchema = z.extend(ContentLanguageSchema, { link: z.string() });
export type Translation = z.infer<typeof TranslationSchema>;

/**
 * Content pages the site has (SPEC §2, §4). The page call itself takes any slug, so adding a
 * page is a content change, not a contract change.
 */
export const CONTENT_PAGES = [
  'convertor',
  'pricing',
  'contact',
  'privacy-policy',
  'terms-of-services',
] as const;
export type ContentPage = (typeof CONTENT_PAGES)[number];

// GET /content/pages/{language}/{page} -------------------------------------------------------

export const PageParamsSchema = z.object({ language: LanguageCodeSchema, page: SlugSchema });
export type PageParams = z.output<typeof PageParamsSchema>;

export const SECTION_VISIBILITIES = ['hidden', 'visible'] as const;

/** One dynamic element's filling; which fields are present depends on `type`. */
export const PageTagSchema = z.object({
  type: z.string(),
  content: z.nullish(z.string()),
  alt: z.nullish(z.string()),
  link: z.nullish(z.string()),
  label: z.nullish(z.string()),
  list: z.nullish(z.array(z.string())),
});
export type PageTag = z.infer<typeof PageTagSchema>;

export const PageSectionSchema = z.object({
  id: z.string(),
  visibility: z.enum(SECTION_VISIBILITIES),
  /** Fill the section's elements marked dynamic, in order. */
  tags: z.array(PageTagSchema),
});
export type PageSection = z.infer<typeof PageSectionSchema>;

export const PageContentSchema = z.object({
  translations: z.array(TranslationSchema),
  language: ContentLanguageSchema,
  link: z.string(),
  sections: z.array(PageSectionSchema),
});
export type PageContent = z.infer<typeof PageContentSchema>;

// GET /content/pages/{language}?provides_translated_languages&provides_current_templates -----

export const LanguageParamsSchema = z.object({ language: LanguageCodeSchema });
export type LanguageParams = z.output<typeof LanguageParamsSchema>;

export const PageListQuerySchema = z.object({
  provides_translated_languages: BooleanQuerySchema,
  provides_current_templates: BooleanQuerySchema,
});
export type PageListQuery = z.output<typeof PageListQuerySchema>;

export const PageListItemSchema = z.object({
  /** The sitemap groups by it and shows 'Main' as 'Company'. */
  category: z.string(),
  title: z.string(),
  link: z.string(),
});
export type PageListItem = z.infer<typeof PageListItemSchema>;

export const PageListSchema = z.object({
  languages: z.array(ContentLanguageSchema),
  pages: z.array(PageListItemSchema),
});
export type PageList = z.infer<typeof PageListSchema>;

/** The sitemap's name for a page category (SPEC §2: 'Main' is shown as 'Company'). */
export function sitemapCategory(category: string): string {
  return category === 'Main' ? 'Company' : category;
}

// GET /content/blog/{language}?provides_translated_languages ---------------------------------

export const BlogListQuerySchema = z.object({
  provides_translated_languages: BooleanQuerySchema,
});
export type BlogListQuery = z.output<typeof BlogListQuerySchema>;

export const ArticleTranslationSchema = z.extend(TranslationSchema, {
  /** True for the article's own language (the switcher marks it). */
  switched: z.boolean(),
});
export type ArticleTranslation = z.infer<typeof ArticleTranslationSchema>;

/** An article's cover picture, shipped with the content (DESIGN.md: never hot-linked). */
export const ArticleCoverSchema = z.object({ src: z.string(), alt: z.string() });
export type ArticleCover = z.infer<typeof ArticleCoverSchema>;

export const BlogArticleSchema = z.object({
  title: z.string(),
  link: z.string(),
  preview: z.string(),
  tags: z.array(z.string()),
  language: ContentLanguageSchema,
  translations: z.array(ArticleTranslationSchema),
  published_time: DateTimeSchema,
  modified_time: DateTimeSchema,
  words_count: z.number().check(z.int(), z.nonnegative()),
  /** Minutes. */
  time_to_read: z.number().check(z.nonnegative()),
  /** HTML. */
  content: z.string(),
  /** Only these appear among the home page's blog teasers. */
  is_on_main_page: z.boolean(),
  /** Not in SPEC §3; DESIGN.md asks for each article's cover picture. */
  cover: z.nullish(ArticleCoverSchema),
});
export type BlogArticle = z.infer<typeof BlogArticleSchema>;

/** Articles in a list carry everything but their body. */
export const BlogArticleSummarySchema = z.omit(BlogArticleSchema, { content: true });
export type BlogArticleSummary = z.infer<typeof BlogArticleSummarySchema>;

export const BlogListSchema = z.object({
  languages: z.array(ContentLanguageSchema),
  articles: z.array(BlogArticleSummarySchema),
});
export type BlogList = z.infer<typeof BlogListSchema>;

// GET /content/blog/article/{language}/{article} ---------------------------------------------

export const ArticleParamsSchema = z.object({ language: LanguageCodeSchema, article: SlugSchema });
export type ArticleParams = z.output<typeof ArticleParamsSchema>;

/** The blog list's tag filter (SPEC §2: default All). */
export const ALL_TAGS = 'All';

/** A page's section by its id, unless hidden (its tags). */
export function visibleSection(
  content: Pick<PageContent, 'sections'>,
  id: string,
): PageTag[] | null {
  const found = content.sections.find((section) => section.id === id);
  return found && found.visibility !== 'hidden' ? found.tags : null;
}

/** The first tag of a type among a section's tags. */
export function firstTag(tags: PageTag[] | null, type: string): PageTag | undefined {
  return tags?.find((tag) => tag.type === type);
}
