import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_LANGUAGE,
  findCountry,
  type PageListItem,
  PageListItemSchema,
  type PageSection,
  PageSectionSchema,
} from '@parla/contract';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { countWords, minutesToRead, parseFrontMatter, renderMarkdown } from './markdown.js';

/*
 * Reads the content tree (content/README.md describes it):
 *   content/languages.yaml           the languages, in the order they are offered
 *   content/pages/{language}/{page}.md
 *   content/blog/{language}/{article}.md
 *   content/images/*.svg|png|jpg|webp  cover pictures, served under /api/content/images/
 * Everything is validated here; a mistake stops the start with the file and the field named.
 */

export const IMAGE_ROUTE = '/api/content/images';

const LanguageFileSchema = z.array(
  z.object({
    code: z.string().refine((code) => code === DEFAULT_LANGUAGE || findCountry(code), {
      error: "must be 'default' or a country code (the route prefix)",
    }),
    name: z.string().min(1),
    native_name: z.string().min(1),
    locale: z.string().min(2),
    direction: z.enum(['ltr', 'rtl']).default('ltr'),
    /** The app's own screens, listed by the page list when asked for the current templates. */
    templates: z.array(PageListItemSchema).default([]),
  }),
);

const SlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const PageFrontMatterSchema = z.object({
  title: z.string().min(1),
  description: z.string().min(1),
  category: z.string().min(1),
  order: z.number().int().default(100),
  /** Structured sections (the convertor's intro, tiles, steps, FAQ); the body is appended. */
  sections: z
    .array(
      z.object({
        ...PageSectionSchema.shape,
        visibility: z.enum(['hidden', 'visible']).default('visible'),
      }),
    )
    .default([]),
});

// YAML reads an unquoted 2026-03-02 as a Date: accept both and keep ISO text.
const DateField = z.union([z.date(), z.string()]).transform((value, ctx) => {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'must be a date such as 2026-03-02' });
    return z.NEVER;
  }
  return date.toISOString();
});

const ArticleFrontMatterSchema = z.object({
  title: z.string().min(1),
  preview: z.string().min(1),
  tags: z.array(z.string().min(1)).min(1),
  published: DateField,
  modified: DateField.optional(),
  /** Same value in an article and its translations; defaults to the English file name. */
  translation: z.string().regex(SlugPattern).optional(),
  main_page: z.boolean().default(false),
  cover: z
    .object({ image: z.string().regex(/^[\w-]+\.(svg|png|jpe?g|webp)$/), alt: z.string() })
    .optional(),
});

export interface LanguageEntry {
  code: string;
  name: string;
  native_name: string;
  locale: string;
  direction: 'ltr' | 'rtl';
  position: number;
  templates: PageListItem[];
}

export interface PageEntry {
  language: string;
  slug: string;
  category: string;
  title: string;
  description: string;
  position: number;
  sections: PageSection[];
}

export interface ArticleEntry {
  language: string;
  slug: string;
  translation_key: string;
  title: string;
  preview: string;
  tags: string[];
  cover_image: string | null;
  cover_alt: string | null;
  published_time: string;
  modified_time: string;
  words_count: number;
  time_to_read: number;
  content_html: string;
  is_on_main_page: boolean;
}

export interface ContentTree {
  /** sha256 of every file read: the seed is skipped when it has not changed. */
  hash: string;
  languages: LanguageEntry[];
  pages: PageEntry[];
  articles: ArticleEntry[];
}

export class ContentError extends Error {
  override name = 'ContentError';
}

function describeIssues(file: string, error: z.ZodError): ContentError {
  const lines = error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`,
  );
  return new ContentError(`${file} is not valid content:\n${lines.join('\n')}`);
}

function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && !name.startsWith('_'))
    .sort();
}

function subdirectories(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Reads and validates the whole tree; throws ContentError naming the file at fault. */
export function loadContentTree(root: string): ContentTree {
  const hash = createHash('sha256');
  const read = (file: string) => {
    const text = readFileSync(file, 'utf8');
    hash.update(path.relative(root, file)).update('\0').update(text).update('\0');
    return text;
  };

  const languagesFile = path.join(root, 'languages.yaml');
  if (!existsSync(languagesFile)) throw new ContentError(`${languagesFile} is missing`);
  const parsedLanguages = LanguageFileSchema.safeParse(parseYaml(read(languagesFile)));
  if (!parsedLanguages.success) throw describeIssues(languagesFile, parsedLanguages.error);
  const languages = parsedLanguages.data.map((language, position) => ({ ...language, position }));
  const known = new Set(languages.map((language) => language.code));
  const checkLanguage = (dir: string, language: string) => {
    if (!known.has(language)) {
      throw new ContentError(`${dir}: '${language}' is not a language of languages.yaml`);
    }
  };

  const pages: PageEntry[] = [];
  const pagesDir = path.join(root, 'pages');
  for (const language of subdirectories(pagesDir)) {
    checkLanguage(path.join(pagesDir, language), language);
    for (const name of markdownFiles(path.join(pagesDir, language))) {
      const file = path.join(pagesDir, language, name);
      const slug = name.replace(/\.md$/, '');
      if (!SlugPattern.test(slug))
        throw new ContentError(`${file}: the file name must be a-z, 0-9 and -`);
      const { data, body } = parseFrontMatterOf(file, read(file));
      const parsed = PageFrontMatterSchema.safeParse(data);
      if (!parsed.success) throw describeIssues(file, parsed.error);
      const meta = parsed.data;
      const sections: PageSection[] = [
        {
          id: 'header',
          visibility: 'visible',
          tags: [
            { type: 'title', content: meta.title },
            { type: 'text', content: meta.description },
          ],
        },
        ...meta.sections,
      ];
      if (body.trim() !== '') {
        sections.push({
          id: 'body',
          visibility: 'visible',
          tags: [{ type: 'html', content: renderMarkdown(body) }],
        });
      }
      pages.push({
        language,
        slug,
        category: meta.category,
        title: meta.title,
        description: meta.description,
        position: meta.order,
        sections,
      });
    }
  }

  const articles: ArticleEntry[] = [];
  const blogDir = path.join(root, 'blog');
  const imagesDir = path.join(root, 'images');
  for (const language of subdirectories(blogDir)) {
    checkLanguage(path.join(blogDir, language), language);
    for (const name of markdownFiles(path.join(blogDir, language))) {
      const file = path.join(blogDir, language, name);
      const slug = name.replace(/\.md$/, '');
      if (!SlugPattern.test(slug))
        throw new ContentError(`${file}: the file name must be a-z, 0-9 and -`);
      const { data, body } = parseFrontMatterOf(file, read(file));
      const parsed = ArticleFrontMatterSchema.safeParse(data);
      if (!parsed.success) throw describeIssues(file, parsed.error);
      const meta = parsed.data;
      if (meta.cover && !existsSync(path.join(imagesDir, meta.cover.image))) {
        throw new ContentError(`${file}: cover.image ${meta.cover.image} is not in ${imagesDir}`);
      }
      const html = renderMarkdown(body);
      const words = countWords(html);
      articles.push({
        language,
        slug,
        translation_key: meta.translation ?? slug,
        title: meta.title,
        preview: meta.preview,
        tags: meta.tags,
        cover_image: meta.cover ? `${IMAGE_ROUTE}/${meta.cover.image}` : null,
        cover_alt: meta.cover?.alt ?? null,
        published_time: meta.published,
        modified_time: meta.modified ?? meta.published,
        words_count: words,
        time_to_read: minutesToRead(words),
        content_html: html,
        is_on_main_page: meta.main_page,
      });
    }
  }
  for (const image of existsSync(imagesDir) ? readdirSync(imagesDir).sort() : []) {
    read(path.join(imagesDir, image));
  }

  const seen = new Set<string>();
  for (const article of articles) {
    const key = `${article.language}/${article.translation_key}`;
    if (seen.has(key)) {
      throw new ContentError(
        `blog/${article.language}: two articles are translations of '${article.translation_key}'`,
      );
    }
    seen.add(key);
  }

  return { hash: hash.digest('hex'), languages, pages, articles };
}

function parseFrontMatterOf(file: string, text: string) {
  try {
    return parseFrontMatter(text);
  } catch (error) {
    throw new ContentError(`${file}: ${(error as Error).message}`);
  }
}
