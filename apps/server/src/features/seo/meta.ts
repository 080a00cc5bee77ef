import {
  type CatalogueCounts,
  DEFAULT_LANGUAGE,
  fillCatalogueCounts,
  PRODUCT_NAME,
  type SeoMeta,
  type SeoMetaQuery,
} from '@parla/contract';
import type { ContentRepository } from '../../services/content/repository.js';

/** The picture shared links show when a page has none of its own (content/images). */
export const DEFAULT_SHARE_IMAGE = '/api/content/images/parla-share.svg';
const DEFAULT_SHARE_ALT = 'Parla: a sound wave leaving a speech bubble, on a violet background';

/**
 * The app's own screens are not content pages; their metadata is written here, in English
 * (they exist only without a language prefix, SPEC §2). The titles are the screens' own, so
 * the title a page sets and the one the SEO call answers agree.
 */
const SCREENS: Record<string, { title: string; description: string }> = {
  '/auth/login': {
    title: 'Login',
    description:
      'Log in to Parla to convert longer texts, download your audio and keep a file history.',
  },
  '/auth/register': {
    title: 'Register',
    description: 'Create a free Parla account and turn text and SSML into speech in minutes.',
  },
  '/auth/forgotten-password': {
    title: 'Forgotten password',
    description: 'Get a link by email to choose a new password for your Parla account.',
  },
  '/auth/reset-password': {
    title: 'Reset password',
    description: 'Choose a new password for your Parla account.',
  },
  '/auth/validate-email-address': {
    title: 'Email address validation',
    description: 'We are validating the email address of your Parla account.',
  },
  '/account': {
    title: 'My Account',
    description: 'Your Parla account: email, password, billing settings.',
  },
  '/account/plan': {
    title: 'My Plan',
    description: 'Your Parla plan and the characters you have left.',
  },
  '/account/checkout': { title: 'Checkout', description: 'Buy a Parla plan by card.' },
  '/file-history': {
    title: 'File History',
    description: 'The audio files you saved with Parla; they are kept for 30 days.',
  },
  '/documents': {
    title: 'Documents',
    description: 'Turn a book, a report or any long document into one audiobook with chapters.',
  },
  '/sitemap': {
    title: 'Sitemap',
    description: 'Every page and article of Parla, in every language it is written in.',
  },
  '/sitemap.html': {
    title: 'Sitemap',
    description: 'Every page and article of Parla, in every language it is written in.',
  },
};

export class SeoNotFoundError extends Error {
  override name = 'SeoNotFoundError';
}

/** 'Pricing' becomes 'Pricing | Parla'; the product's own title stays as it is. */
export function fullTitle(title: string): string {
  return title.includes(PRODUCT_NAME) ? title : `${title} | ${PRODUCT_NAME}`;
}

function build(
  title: string,
  description: string,
  image: string,
  alt: string,
  type: 'website' | 'article',
  publicUrl: string,
): SeoMeta {
  const absolute = /^https?:\/\//.test(image) ? image : `${publicUrl}${image}`;
  const full = fullTitle(title);
  return {
    main: { title: full, description },
    open_graph: { type, title: full, description, image: absolute, alt },
    microdata: { title: full, description, image: absolute },
    twitter: { title: full, description, image: absolute, alt },
  };
}

/** The content page a path shows (SPEC §2): any path that is no other page shows the convertor. */
export function pageSlugOf(path: string): string {
  const first = path.split('/').filter(Boolean)[0] ?? 'convertor';
  return first;
}

/**
 * The metadata of a route (SPEC §7 GET /seo/meta): an article's title, preview and cover for
 * type blog; a content page's title and description for type pages; the app's screens from
 * SCREENS; anything else is the convertor, as the router shows it.
 */
export async function seoMetaFor(
  query: SeoMetaQuery,
  content: ContentRepository,
  publicUrl: string,
  counts?: () => Promise<CatalogueCounts>,
): Promise<SeoMeta> {
  const meta = await metaOf(query, content, publicUrl);
  // A page's title and description may name the catalogue's counts ({{voices}}, content/README.md):
  // written as the content call writes them, in the numbers of the page's language.
  const json = JSON.stringify(meta);
  if (!counts || !json.includes('{{')) return meta;
  const locale = query.language === DEFAULT_LANGUAGE ? 'en' : query.language;
  return JSON.parse(fillCatalogueCounts(json, await counts(), locale)) as SeoMeta;
}

async function metaOf(
  query: SeoMetaQuery,
  content: ContentRepository,
  publicUrl: string,
): Promise<SeoMeta> {
  const language = await content.language(query.language);
  if (!language)
    throw new SeoNotFoundError(`There is no content in the language '${query.language}'.`);
  const path = query.path.replace(/\/+$/, '') || '/';

  if (query.type === 'blog') {
    const slug = /^\/blog\/article\/([^/]+)$/.exec(path)?.[1];
    const article = slug
      ? await content.article(language.code, decodeURIComponent(slug))
      : undefined;
    if (!article)
      throw new SeoNotFoundError(`There is no article at ${query.path} in this language.`);
    return build(
      article.title,
      article.preview,
      article.cover?.src ?? DEFAULT_SHARE_IMAGE,
      article.cover?.alt ?? DEFAULT_SHARE_ALT,
      'article',
      publicUrl,
    );
  }

  const screen = SCREENS[path] ?? SCREENS[path.replace(/\/[^/]+$/, '')];
  if (screen && !path.startsWith('/blog')) {
    return build(
      screen.title,
      screen.description,
      DEFAULT_SHARE_IMAGE,
      DEFAULT_SHARE_ALT,
      'website',
      publicUrl,
    );
  }
  const slug = path.startsWith('/blog') ? 'blog' : pageSlugOf(path);
  const page =
    (await content.page(language.code, slug)) ?? (await content.page(language.code, 'convertor'));
  if (!page) throw new SeoNotFoundError(`There is no page at ${query.path} in this language.`);
  return build(
    page.title,
    page.description,
    DEFAULT_SHARE_IMAGE,
    DEFAULT_SHARE_ALT,
    'website',
    publicUrl,
  );
}
