import {
  type CatalogueCounts,
  ErrorResponseSchema,
  SeoMetaQuerySchema,
  SeoMetaSchema,
  seoMetaQueryFor,
  withLanguagePrefix,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ContentStore, createContentRepository } from '../../services/content/repository.js';
import { renderIndexHtml } from './head.js';
import { pageSlugOf, SeoNotFoundError, seoMetaFor } from './meta.js';
import type { createShellWriter } from './shell.js';

export interface SeoRoutesOptions {
  /** The published content, kept in memory (decision 054). */
  store: ContentStore;
  /** PUBLIC_URL: absolute addresses in metadata, sitemap.xml and robots.txt. */
  publicUrl: string;
  /** The voice catalogue's counts, for the `{{voices}}`/`{{languages}}` of titles and descriptions. */
  catalogueCounts?: () => Promise<CatalogueCounts>;
}

/** GET /seo/meta (SPEC §7). */
export const seoRoutes: FastifyPluginAsyncZod<SeoRoutesOptions> = async (app, options) => {
  const content = createContentRepository(options.store);
  app.get(
    '/meta',
    {
      schema: {
        tags: ['seo'],
        summary: "A route's title, description, Open Graph, Twitter and microdata",
        querystring: SeoMetaQuerySchema,
        response: { 200: SeoMetaSchema, 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      try {
        return await seoMetaFor(request.query, content, options.publicUrl, options.catalogueCounts);
      } catch (error) {
        if (error instanceof SeoNotFoundError)
          return reply.code(404).send({ message: error.message });
        throw error;
      }
    },
  );
};

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`,
  );

/** The pages and articles of every language, each with its alternates (sitemaps.org + hreflang). */
export async function sitemapXml(store: ContentStore, publicUrl: string): Promise<string> {
  const content = createContentRepository(store);
  const languages = await content.languages();
  const locales = new Map(languages.map((language) => [language.code, language.locale]));
  const defaultCode = languages[0]?.code;
  type Entry = { path: string; language: string; lastmod: string; group: string };
  const entries: Entry[] = [];
  for (const page of await content.allPages()) {
    entries.push({
      path: withLanguagePrefix(page.language, `/${page.slug}`),
      language: page.language,
      lastmod: page.updated_at,
      group: `page:${page.slug}`,
    });
  }
  for (const article of await content.allArticles()) {
    entries.push({
      path: withLanguagePrefix(article.language, `/blog/article/${article.slug}`),
      language: article.language,
      lastmod: article.modified_time,
      group: `article:${article.translation_key}`,
    });
  }
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  const urls = entries.map((entry) => {
    const siblings = groups.get(entry.group) ?? [];
    const alternates = siblings.map(
      (sibling) =>
        `    <xhtml:link rel="alternate" hreflang="${escapeXml(locales.get(sibling.language) ?? sibling.language)}" href="${escapeXml(publicUrl + sibling.path)}"/>`,
    );
    const fallback = siblings.find((sibling) => sibling.language === defaultCode);
    if (fallback && siblings.length > 1) {
      alternates.push(
        `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(publicUrl + fallback.path)}"/>`,
      );
    }
    return [
      '  <url>',
      `    <loc>${escapeXml(publicUrl + entry.path)}</loc>`,
      `    <lastmod>${entry.lastmod.slice(0, 10)}</lastmod>`,
      ...(siblings.length > 1 ? alternates : []),
      '  </url>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    // Private screens and the API have nothing for a search engine.
    'Disallow: /api/',
    'Disallow: /account',
    'Disallow: /file-history',
    'Disallow: /documents',
    'Disallow: /auth/reset-password/',
    'Disallow: /auth/validate-email-address/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** /sitemap.xml and /robots.txt, generated from the content on every request (small, cheap). */
export const seoSiteRoutes: FastifyPluginAsyncZod<SeoRoutesOptions> = async (app, options) => {
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(await sitemapXml(options.store, options.publicUrl)),
  );
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(options.publicUrl)),
  );
};

/**
 * Writes a route's metadata into index.html (issue 7: a crawler that runs no JavaScript sees
 * them), and the static shell of the page's language (issue 33 item 9). Unknown articles or
 * languages fall back to the convertor's metadata, as the page does.
 */
export function createIndexRenderer(
  store: ContentStore,
  publicUrl: string,
  {
    catalogueCounts,
    writeShell,
  }: {
    catalogueCounts?: () => Promise<CatalogueCounts>;
    writeShell?: ReturnType<typeof createShellWriter>;
  } = {},
) {
  const content = createContentRepository(store);
  return async (url: string, html: string): Promise<string> => {
    const query = seoMetaQueryFor(url);
    let language = await content.language(query.language);
    if (!language) {
      language = await content.language('default');
      query.language = 'default';
    }
    let meta: Awaited<ReturnType<typeof seoMetaFor>>;
    try {
      meta = await seoMetaFor(query, content, publicUrl, catalogueCounts);
    } catch (error) {
      if (!(error instanceof SeoNotFoundError)) throw error;
      meta = await seoMetaFor(
        { type: 'pages', language: 'default', path: '/convertor' },
        content,
        publicUrl,
        catalogueCounts,
      );
    }
    const languages = await content.languages();
    const locales = new Map(languages.map((row) => [row.code, row.locale]));
    let alternates: Array<{ locale: string; url: string }> = [];
    let convertor: Awaited<ReturnType<typeof content.page>>;
    if (query.type === 'blog') {
      const slug = /^\/blog\/article\/([^/]+)/.exec(query.path)?.[1];
      const article = slug ? await content.article(query.language, slug) : undefined;
      alternates = (article?.translations ?? []).map((translation) => ({
        locale: locales.get(translation.code) ?? translation.code,
        url: publicUrl + translation.link,
      }));
    } else {
      const slug = query.path.startsWith('/blog') ? 'blog' : pageSlugOf(query.path);
      const page = await content.page(query.language, slug);
      if (slug === 'convertor') convertor = page;
      const rest = slug === 'blog' ? query.path : query.path === '/' ? '/convertor' : query.path;
      alternates = (page?.translations ?? []).map((translation) => ({
        locale: locales.get(translation.code) ?? translation.code,
        url: publicUrl + withLanguagePrefix(translation.code, rest),
      }));
    }
    const pathname = url.split(/[?#]/, 1)[0] ?? '/';
    const locale = language?.locale ?? 'en';
    const shelled = writeShell
      ? await writeShell(html, { locale, language: query.language, convertor })
      : html;
    return renderIndexHtml(shelled, {
      meta,
      locale,
      direction: language?.direction ?? 'ltr',
      url: publicUrl + pathname,
      alternates: alternates.length > 1 ? alternates : [],
    });
  };
}
