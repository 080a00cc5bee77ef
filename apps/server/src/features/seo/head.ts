import type { SeoMeta } from '@parla/contract';

const escapeAttribute = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );

export interface HeadOptions {
  meta: SeoMeta;
  /** The html element's lang and dir. */
  locale: string;
  direction: 'ltr' | 'rtl';
  /** Absolute address of the page. */
  url: string;
  /** hreflang alternates: locale and absolute address. */
  alternates: Array<{ locale: string; url: string }>;
}

/**
 * The tags a crawler that runs no JavaScript must see. The web app's usePageMeta updates the
 * same elements (same selectors) once it runs, so they are never doubled.
 */
export function headTags({ meta, url, alternates }: HeadOptions): string {
  const tag = (attribute: 'name' | 'property' | 'itemprop', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeAttribute(content)}" data-seo />`;
  return [
    tag('name', 'description', meta.main.description),
    `<link rel="canonical" href="${escapeAttribute(url)}" data-seo />`,
    ...alternates.map(
      (alternate) =>
        `<link rel="alternate" hreflang="${escapeAttribute(alternate.locale)}" href="${escapeAttribute(alternate.url)}" data-seo />`,
    ),
    tag('property', 'og:type', meta.open_graph.type),
    tag('property', 'og:title', meta.open_graph.title),
    tag('property', 'og:description', meta.open_graph.description),
    tag('property', 'og:image', meta.open_graph.image),
    tag('property', 'og:image:alt', meta.open_graph.alt),
    tag('property', 'og:url', url),
    tag('name', 'twitter:card', 'summary_large_image'),
    tag('name', 'twitter:title', meta.twitter.title),
    tag('name', 'twitter:description', meta.twitter.description),
    tag('name', 'twitter:image', meta.twitter.image),
    tag('name', 'twitter:image:alt', meta.twitter.alt),
    tag('itemprop', 'name', meta.microdata.title),
    tag('itemprop', 'description', meta.microdata.description),
    tag('itemprop', 'image', meta.microdata.image),
  ].join('\n    ');
}

/** index.html with the page's title, lang, dir and metadata written in. */
export function renderIndexHtml(html: string, options: HeadOptions): string {
  return html
    .replace(
      /<html[^>]*>/i,
      `<html lang="${escapeAttribute(options.locale)}" dir="${options.direction}">`,
    )
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '')
    .replace(
      /<title>[\s\S]*?<\/title>/i,
      `<title>${escapeAttribute(options.meta.main.title)}</title>`,
    )
    .replace(/<\/head>/i, `  ${headTags(options)}\n  </head>`);
}
