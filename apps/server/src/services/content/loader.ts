import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONTENT_KINDS,
  CONTENT_SLUG,
  ContentArticleFrontMatterSchema,
  type ContentKind,
  ContentPageFrontMatterSchema,
  DEFAULT_LANGUAGE,
  findCountry,
  type PageListItem,
  PageListItemSchema,
  type PageSection,
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

/** content/ of the repository: the seed of an empty database. */
export const DEFAULT_CONTENT_DIR = fileURLToPath(
  new URL('../../../../../content', import.meta.url),
);

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

/** YAML reads an unquoted 2026-03-02 as a Date: the schemas take ISO text. */
function withIsoDates(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [
      key,
      value instanceof Date ? value.toISOString() : value,
    ]),
  );
}

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

/** One page or article file as it was read (the console's documents are these texts). */
export interface ContentFile {
  kind: ContentKind;
  language: string;
  slug: string;
  text: string;
}

/** What a file shows visitors once published. */
export type ShownEntry =
  | { kind: 'pages'; entry: PageEntry }
  | { kind: 'articles'; entry: ArticleEntry };

export interface ContentTree {
  /** sha256 of every file read: the seed is skipped when it has not changed. */
  hash: string;
  languages: LanguageEntry[];
  pages: PageEntry[];
  articles: ArticleEntry[];
  files: (ContentFile & { shown: ShownEntry })[];
  /** languages.yaml as it was read (the export writes it back). */
  languagesText: string;
  /** The images' file names. */
  images: string[];
}

export class ContentError extends Error {
  override name = 'ContentError';
}

function describeIssues(
  file: string,
  error: { issues: readonly { path: PropertyKey[]; message: string }[] },
): ContentError {
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
  const languagesText = read(languagesFile);
  const parsedLanguages = LanguageFileSchema.safeParse(parseYaml(languagesText));
  if (!parsedLanguages.success) throw describeIssues(languagesFile, parsedLanguages.error);
  const languages = parsedLanguages.data.map((language, position) => ({ ...language, position }));
  const known = new Set(languages.map((language) => language.code));
  const checkLanguage = (dir: string, language: string) => {
    if (!known.has(language)) {
      throw new ContentError(`${dir}: '${language}' is not a language of languages.yaml`);
    }
  };

  const imagesDir = path.join(root, 'images');
  const images = existsSync(imagesDir) ? readdirSync(imagesDir).sort() : [];
  const pages: PageEntry[] = [];
  const articles: ArticleEntry[] = [];
  const files: ContentTree['files'] = [];
  for (const kind of CONTENT_KINDS) {
    const dir = path.join(root, KIND_FOLDERS[kind]);
    for (const language of subdirectories(dir)) {
      checkLanguage(path.join(dir, language), language);
      for (const name of markdownFiles(path.join(dir, language))) {
        const file = path.join(dir, language, name);
        const slug = name.replace(/\.md$/, '');
        if (!CONTENT_SLUG.test(slug))
          throw new ContentError(`${file}: the file name must be a-z, 0-9 and -`);
        const text = read(file);
        const parsed = parseContentFile({ kind, language, slug, text }, (image) =>
          images.includes(image),
        );
        if (!parsed.ok) {
          throw parsed.issues
            ? describeIssues(file, { issues: parsed.issues })
            : new ContentError(`${file}: ${parsed.message}`);
        }
        if (parsed.kind === 'pages') pages.push(parsed.entry);
        else articles.push(parsed.entry);
        files.push({ kind, language, slug, text, shown: parsed });
      }
    }
  }
  for (const image of images) read(path.join(imagesDir, image));

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

  return { hash: hash.digest('hex'), languages, pages, articles, files, languagesText, images };
}

/** Where each kind lives under content/. */
export const KIND_FOLDERS: Record<ContentKind, string> = { pages: 'pages', articles: 'blog' };

export type ParsedContent =
  | (ShownEntry & { ok: true })
  | { ok: false; message: string; issues?: { path: PropertyKey[]; message: string }[] };

/**
 * One page or article file made into what the site shows: the seed and the console's
 * publications both go through here, so a file and a console edit are checked alike.
 */
export function parseContentFile(
  file: ContentFile,
  imageExists: (name: string) => boolean,
): ParsedContent {
  let split: ReturnType<typeof parseFrontMatter>;
  try {
    split = parseFrontMatter(file.text);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const data = withIsoDates(split.data);
  const { body } = split;
  const html = body.trim() === '' ? '' : renderMarkdown(body);
  if (file.kind === 'pages') {
    const parsed = ContentPageFrontMatterSchema.safeParse(data);
    if (!parsed.success) return { ok: false, message: 'invalid', issues: parsed.error.issues };
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
      ...(meta.sections ?? []).map((section) => ({
        ...section,
        visibility: section.visibility ?? ('visible' as const),
      })),
    ];
    if (html !== '') {
      sections.push({ id: 'body', visibility: 'visible', tags: [{ type: 'html', content: html }] });
    }
    const entry: PageEntry = {
      language: file.language,
      slug: file.slug,
      category: meta.category,
      title: meta.title,
      description: meta.description,
      position: meta.order ?? 100,
      sections,
    };
    return { ok: true, kind: 'pages', entry };
  }
  const parsed = ContentArticleFrontMatterSchema.safeParse(data);
  if (!parsed.success) return { ok: false, message: 'invalid', issues: parsed.error.issues };
  const meta = parsed.data;
  if (meta.cover && !imageExists(meta.cover.image)) {
    return {
      ok: false,
      message: `cover.image ${meta.cover.image} is not one of the images`,
      issues: [
        { path: ['cover', 'image'], message: `${meta.cover.image} is not one of the images` },
      ],
    };
  }
  const words = countWords(html);
  const published = new Date(meta.published).toISOString();
  const entry: ArticleEntry = {
    language: file.language,
    slug: file.slug,
    translation_key: meta.translation ?? file.slug,
    title: meta.title,
    preview: meta.preview,
    tags: meta.tags,
    cover_image: meta.cover ? `${IMAGE_ROUTE}/${meta.cover.image}` : null,
    cover_alt: meta.cover?.alt ?? null,
    published_time: published,
    modified_time: meta.modified ? new Date(meta.modified).toISOString() : published,
    words_count: words,
    time_to_read: minutesToRead(words),
    content_html: html,
    is_on_main_page: meta.main_page ?? false,
  };
  return { ok: true, kind: 'articles', entry };
}
