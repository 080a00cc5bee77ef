import * as z from 'zod/mini';
import { PageSectionSchema, PageTagSchema, SECTION_VISIBILITIES } from './content.js';
import { DateTimeSchema, noNul } from './fields.js';

// The operator's console, Content (issue 31 §2, decision 054) --------------------------------
//
//   GET  /api/admin/content                                   AdminContentListSchema
//   GET  /api/admin/content/{kind}/{language}/{slug}          AdminContentDocumentSchema
//   PUT  /api/admin/content/{kind}/{language}/{slug}          AdminPage|ArticleInputSchema (the draft)
//   POST /api/admin/content/{kind}/{language}/{slug}/publish  AdminContentPublishSchema (now or at)
//   POST /api/admin/content/{kind}/{language}/{slug}/revisions/{id}/restore   (the draft again)
//   POST /api/admin/content/preview                           AdminContentPreviewInputSchema
//   GET  /api/admin/content/images                            AdminContentImagesSchema
//   POST /api/admin/content/images                            AdminContentImageInputSchema (base64)
//
// {kind} is `pages` or `articles`. A document's front matter is the YAML of its file in
// content/ (content/README.md): the files and the console are validated by the same schemas.

export const CONTENT_KINDS = ['pages', 'articles'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** A file name in content/: a-z, 0-9 and single dashes (`privacy-policy`). */
export const CONTENT_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A picture's file name in content/images (and in a cover's `image`). */
export const CONTENT_IMAGE_NAME = /^[\w-]+\.(svg|png|jpe?g|webp)$/;

const ContentSlugSchema = z
  .string()
  .check(z.regex(CONTENT_SLUG, { error: 'must be a-z, 0-9 and -' }));
const required = z.string().check(z.minLength(1, { error: 'is required' }), noNul);
/** An unquoted YAML date (2026-03-02) or an instant; stored as an ISO instant. */
const ContentDateSchema = z.union([DateTimeSchema, z.iso.date()], {
  error: 'must be a date such as 2026-03-02',
});

export const ContentPageFrontMatterSchema = z.object({
  /** The h1, the page list and the SEO title. */
  title: required,
  /** The lead and the meta description. */
  description: required,
  /** The sitemap groups by it ('Main' is shown as 'Company'). */
  category: required,
  /** Position in the page list (100 when absent). */
  order: z.optional(z.int()),
  /** The page's dynamic elements, in order; the same ids in every language. */
  sections: z.optional(
    z.array(
      z.object({
        id: required,
        visibility: z.optional(z.enum(SECTION_VISIBILITIES)),
        tags: z.array(PageTagSchema),
      }),
    ),
  ),
});
export type ContentPageFrontMatter = z.infer<typeof ContentPageFrontMatterSchema>;

export const ContentArticleFrontMatterSchema = z.object({
  title: required,
  /** One or two sentences for the list and the meta description. */
  preview: required,
  tags: z.array(required).check(z.minLength(1, { error: 'needs at least one tag' })),
  published: ContentDateSchema,
  modified: z.optional(ContentDateSchema),
  /** Shared by an article and its translations: the English file name. */
  translation: z.optional(ContentSlugSchema),
  /** Shown among the home page's blog teasers. */
  main_page: z.optional(z.boolean()),
  cover: z.optional(
    z.object({
      image: z.string().check(
        z.regex(CONTENT_IMAGE_NAME, {
          error: 'must be a file name of the images (name.svg, .png, .jpg or .webp)',
        }),
      ),
      alt: z.string().check(noNul),
    }),
  ),
});
export type ContentArticleFrontMatter = z.infer<typeof ContentArticleFrontMatterSchema>;

/** The largest picture the console uploads. */
export const CONTENT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export const AdminContentImageInputSchema = z.object({
  name: z.string().check(
    z.regex(CONTENT_IMAGE_NAME, {
      error: 'name must be a file name such as cover.png (.svg, .png, .jpg or .webp)',
    }),
  ),
  /** The picture's bytes in base64. */
  data: z.base64().check(
    z.minLength(1, { error: 'data is required: the picture in base64' }),
    z.maxLength(Math.ceil(CONTENT_IMAGE_MAX_BYTES / 3) * 4, {
      error: 'data: a picture may be 5 MB at most',
    }),
  ),
});
export type AdminContentImageInput = z.infer<typeof AdminContentImageInputSchema>;

export const AdminContentImagesSchema = z.object({
  /** Every picture a cover or the Markdown may use, with its address on the site. */
  images: z.array(z.object({ name: z.string(), src: z.string() })),
});
export type AdminContentImages = z.infer<typeof AdminContentImagesSchema>;

/** The Markdown body; large enough for any article, bounded for the server. */
const BodySchema = z.string().check(z.maxLength(200_000), noNul);

export const AdminPageInputSchema = z.object({
  front_matter: ContentPageFrontMatterSchema,
  body: BodySchema,
});
export type AdminPageInput = z.infer<typeof AdminPageInputSchema>;
export const AdminArticleInputSchema = z.object({
  front_matter: ContentArticleFrontMatterSchema,
  body: BodySchema,
});
export type AdminArticleInput = z.infer<typeof AdminArticleInputSchema>;

export const AdminContentParamsSchema = z.object({
  kind: z.enum(CONTENT_KINDS),
  language: z.string().check(z.minLength(1), z.maxLength(40), noNul),
  slug: ContentSlugSchema,
});
export type AdminContentParams = z.infer<typeof AdminContentParamsSchema>;

export const AdminRevisionParamsSchema = z.extend(AdminContentParamsSchema, {
  id: z.string().check(z.minLength(1), z.maxLength(64), noNul),
});

/** Published: visitors see it; draft: never published; scheduled: published at `publish_at`. */
export const CONTENT_STATES = ['published', 'draft', 'scheduled'] as const;

export const AdminContentItemSchema = z.object({
  kind: z.enum(CONTENT_KINDS),
  language: z.string(),
  slug: z.string(),
  /** Pages: the slug; articles: the translation key (what the translations share). */
  group: z.string(),
  title: z.string(),
  state: z.enum(CONTENT_STATES),
  /** The draft differs from what visitors see. */
  changed: z.boolean(),
  publish_at: z.nullable(DateTimeSchema),
  published_at: z.nullable(DateTimeSchema),
  updated_at: DateTimeSchema,
});
export type AdminContentItem = z.infer<typeof AdminContentItemSchema>;

export const AdminContentListSchema = z.object({
  /** The languages of content/languages.yaml, in their order. */
  languages: z.array(z.object({ code: z.string(), name: z.string(), direction: z.string() })),
  items: z.array(AdminContentItemSchema),
});
export type AdminContentList = z.infer<typeof AdminContentListSchema>;

export const AdminContentSourceSchema = z.object({
  front_matter: z.record(z.string(), z.unknown()),
  body: z.string(),
});
export type AdminContentSource = z.infer<typeof AdminContentSourceSchema>;

export const AdminContentRevisionSchema = z.object({
  id: z.string(),
  /** seed: from the files; save: a draft; publish; restore: an older revision made the draft. */
  action: z.enum(['seed', 'save', 'publish', 'restore']),
  actor_email: z.nullable(z.string()),
  date: DateTimeSchema,
  source: AdminContentSourceSchema,
});
export type AdminContentRevision = z.infer<typeof AdminContentRevisionSchema>;

export const AdminContentDocumentSchema = z.object({
  item: AdminContentItemSchema,
  draft: AdminContentSourceSchema,
  /** What visitors see; null before the first publication. */
  published: z.nullable(AdminContentSourceSchema),
  /** Newest first. */
  revisions: z.array(AdminContentRevisionSchema),
});
export type AdminContentDocument = z.infer<typeof AdminContentDocumentSchema>;

export const AdminContentPublishSchema = z.object({
  /** Absent or null: now. A later instant schedules the draft for then. */
  at: z.optional(z.nullable(DateTimeSchema)),
});
export type AdminContentPublish = z.infer<typeof AdminContentPublishSchema>;

export const AdminContentPreviewInputSchema = z.object({
  body: BodySchema,
  /** A page's sections, shown as the site shows them ({{voices}} and the like filled in). */
  sections: z.optional(ContentPageFrontMatterSchema.shape.sections),
  /** The page's language: the catalogue's counts are written in it. */
  language: z.optional(z.string().check(noNul)),
});
export type AdminContentPreviewInput = z.input<typeof AdminContentPreviewInputSchema>;
/** The body's HTML as the site shows it (the server's Markdown and sanitiser), and the sections. */
export const AdminContentPreviewSchema = z.object({
  html: z.string(),
  sections: z.array(PageSectionSchema),
});
export type AdminContentPreview = z.infer<typeof AdminContentPreviewSchema>;

export const ADMIN_CONTENT_MESSAGES = {
  unknownLanguage: (code: string) => `language: "${code}" is not a language of the content.`,
  unknownDocument: (kind: string, language: string, slug: string) =>
    `There is no ${kind === 'pages' ? 'page' : 'article'} "${slug}" in the language "${language}".`,
  unknownRevision: (id: string) => `id: there is no revision "${id}" of this document.`,
  unknownCover: (image: string) => `front_matter.cover.image: there is no image "${image}".`,
  translationTaken: (key: string, language: string) =>
    `front_matter.translation: another article in "${language}" is already a translation of "${key}".`,
  imageNotOfType: (name: string) => `data: the bytes are not the picture ${name} says it is.`,
  imageTaken: (name: string) => `name: there is already a picture "${name}"; choose another name.`,
  publishInPast: 'at: a scheduled publication must be in the future; leave it out to publish now.',
} as const;
