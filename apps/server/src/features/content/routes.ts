import path from 'node:path';
import {
  BlogArticleSchema,
  BlogListQuerySchema,
  BlogListSchema,
  type CatalogueCounts,
  DEFAULT_LANGUAGE,
  ErrorResponseSchema,
  fillCatalogueCounts,
  noNul,
  PageContentSchema,
  PageListQuerySchema,
  PageListSchema,
} from '@parla/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ContentImages } from '../../services/content/images.js';
import { type ContentStore, createContentRepository } from '../../services/content/repository.js';

export interface ContentRoutesOptions {
  /** The published content, kept in memory (decision 054). */
  store: ContentStore;
  /** The pictures: content/images and those uploaded in the console (served here). */
  images: ContentImages;
  /** The voice catalogue's counts, for the `{{voices}}`/`{{languages}}` of the content. */
  catalogueCounts: () => Promise<CatalogueCounts>;
}

export const CONTENT_MESSAGES = {
  unknownLanguage: (language: string) => `There is no content in the language '${language}'.`,
  unknownPage: (page: string, language: string) =>
    `There is no page '${page}' in the language '${language}'.`,
  unknownArticle: (article: string, language: string) =>
    `There is no article '${article}' in the language '${language}'.`,
  unknownImage: 'There is no such image.',
} as const;

/*
 * The params are plain strings here rather than the contract's LanguageCodeSchema: SPEC and
 * issue 7 want an unknown language answered 404 with a message, like an unknown page, not 400.
 */
const LanguageParams = z.object({ language: z.string().min(1).max(40).check(noNul) });
const PageParams = LanguageParams.extend({ page: z.string().min(1).max(200).check(noNul) });
const ArticleParams = LanguageParams.extend({
  article: z.string().min(1).max(200).check(noNul),
});

const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
};

/** GET /content/pages…, /content/blog…, and the cover images (SPEC §7). No token needed. */
export const contentRoutes: FastifyPluginAsyncZod<ContentRoutesOptions> = async (app, options) => {
  const content = createContentRepository(options.store);

  /**
   * A page or page list with the catalogue's counts in place of their placeholders, written as
   * numbers are in the content's language ('default' is English).
   */
  async function withCounts<T>(value: T, language: string): Promise<T> {
    const json = JSON.stringify(value);
    if (!json.includes('{{')) return value;
    const locale = language === DEFAULT_LANGUAGE ? 'en' : language;
    return JSON.parse(fillCatalogueCounts(json, await options.catalogueCounts(), locale)) as T;
  }

  /**
   * The route's language, or undefined after answering 404 with a message naming it (the
   * handler then returns the reply).
   */
  async function routeLanguage(code: string, reply: FastifyReply) {
    const language = await content.language(code.toLowerCase());
    if (!language) reply.code(404).send({ message: CONTENT_MESSAGES.unknownLanguage(code) });
    return language;
  }

  app.get(
    '/pages/:language',
    {
      schema: {
        tags: ['content'],
        summary: 'The pages of a language, for the sitemap',
        params: LanguageParams,
        querystring: PageListQuerySchema,
        response: { 200: PageListSchema, 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const language = await routeLanguage(request.params.language, reply);
      if (!language) return reply;
      const { provides_translated_languages, provides_current_templates } = request.query;
      return {
        languages: provides_translated_languages
          ? await content.pageLanguages()
          : [content.toLanguage(language)],
        pages: await withCounts(
          await content.pageList(language.code, provides_current_templates),
          language.code,
        ),
      };
    },
  );

  app.get(
    '/pages/:language/:page',
    {
      schema: {
        tags: ['content'],
        summary: "A page's content (sections filling its dynamic elements) and its translations",
        params: PageParams,
        response: { 200: PageContentSchema, 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { page } = request.params;
      const language = await routeLanguage(request.params.language, reply);
      if (!language) return reply;
      const found = await content.page(language.code, page);
      if (!found) {
        return reply.code(404).send({ message: CONTENT_MESSAGES.unknownPage(page, language.code) });
      }
      return withCounts(found, language.code);
    },
  );

  app.get(
    '/blog/:language',
    {
      schema: {
        tags: ['content'],
        summary: 'The articles of a language, newest first (the tag filter is applied in the page)',
        params: LanguageParams,
        querystring: BlogListQuerySchema,
        response: { 200: BlogListSchema, 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const language = await routeLanguage(request.params.language, reply);
      if (!language) return reply;
      return {
        languages: request.query.provides_translated_languages
          ? await content.blogLanguages()
          : [content.toLanguage(language)],
        articles: await content.articles(language.code),
      };
    },
  );

  app.get(
    '/blog/article/:language/:article',
    {
      schema: {
        tags: ['content'],
        summary: 'One article with its sanitised HTML body and its translations',
        params: ArticleParams,
        response: { 200: BlogArticleSchema, 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const { article } = request.params;
      const language = await routeLanguage(request.params.language, reply);
      if (!language) return reply;
      const found = await content.article(language.code, article);
      if (!found) {
        return reply
          .code(404)
          .send({ message: CONTENT_MESSAGES.unknownArticle(article, language.code) });
      }
      return found;
    },
  );

  app.get(
    '/images/:file',
    {
      schema: {
        tags: ['content'],
        summary: 'A picture of the content (shipped in content/images or uploaded in the console)',
        params: z.object({ file: z.string() }),
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      const type = IMAGE_TYPES[path.extname(file).toLowerCase()];
      // Only plain file names of the images folder: no path can climb out of it.
      if (!type || !/^[\w-]+\.[a-z]+$/i.test(file)) {
        return reply.code(404).send({ message: CONTENT_MESSAGES.unknownImage });
      }
      const body = await options.images.read(file);
      if (!body) return reply.code(404).send({ message: CONTENT_MESSAGES.unknownImage });
      // An SVG opened on its own is a document: it may run nothing.
      if (type === 'image/svg+xml') {
        reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      }
      return reply.type(type).header('cache-control', 'public, max-age=86400').send(body);
    },
  );
};
