import * as z from 'zod/mini';
import { noNul } from './fields.js';
import { LanguageCodeSchema, splitLanguagePrefix } from './language-prefix.js';

export const SEO_TYPES = ['pages', 'blog'] as const;
export type SeoType = (typeof SEO_TYPES)[number];

// GET /seo/meta?type&language&path -----------------------------------------------------------

export const SeoMetaQuerySchema = z.object({
  type: z.enum(SEO_TYPES),
  language: LanguageCodeSchema,
  /** The route without its language prefix and without a query string. */
  path: z.string().check(z.startsWith('/'), noNul),
});
export type SeoMetaQuery = z.output<typeof SeoMetaQuerySchema>;

/**
 * The SEO query of a browser location (SPEC §7): type blog when the path contains
 * /blog/article, else pages; the language prefix becomes `language`; a query string (the
 * blog's ?tag= filter) is dropped, so /blog?tag=x is reported as /blog.
 */
export function seoMetaQueryFor(location: string): SeoMetaQuery {
  const pathname = location.split(/[?#]/, 1)[0] ?? '/';
  const { language, path } = splitLanguagePrefix(pathname === '' ? '/' : pathname);
  return { type: path.includes('/blog/article') ? 'blog' : 'pages', language, path };
}

const SeoTextSchema = z.object({ title: z.string(), description: z.string() });

export const SeoMetaSchema = z.object({
  main: SeoTextSchema,
  open_graph: z.extend(SeoTextSchema, { type: z.string(), image: z.string(), alt: z.string() }),
  microdata: z.extend(SeoTextSchema, { image: z.string() }),
  twitter: z.extend(SeoTextSchema, { image: z.string(), alt: z.string() }),
});
export type SeoMeta = z.infer<typeof SeoMetaSchema>;
