import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { parse as parseYaml } from 'yaml';

/** A content file split into its YAML front matter and its Markdown body. */
export interface FrontMatterFile {
  data: Record<string, unknown>;
  body: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Splits `---\nyaml\n---\nmarkdown`; a file without front matter has empty data. */
export function parseFrontMatter(source: string): FrontMatterFile {
  const text = source.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  const data: unknown = parseYaml(match[1] ?? '');
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) {
    throw new Error('the front matter must be a YAML mapping (key: value lines)');
  }
  return { data: (data ?? {}) as Record<string, unknown>, body: match[2] ?? '' };
}

// One Marked instance with GitHub-flavoured Markdown; HTML in the source passes through to the
// sanitiser below, which decides what survives.
const marked = new Marked({ gfm: true, breaks: false, async: false });

/**
 * What article and page HTML may contain: text structure, links, images, tables and code.
 * No scripts, styles, forms, frames or event handlers; links only to http(s), mailto and tel,
 * or to paths of the site; images only from the site or https.
 */
const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'abbr',
    'kbd',
    'code',
    'pre',
    'samp',
    'var',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'span',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'hreflang', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    abbr: ['title'],
    code: ['class'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    '*': ['lang', 'dir'],
  },
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // The contents of these are dropped with them, not shown as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'title'],
  transformTags: {
    a: (tagName, attribs) => {
      const href = attribs.href ?? '';
      // A link that leaves the site opens without giving the other site a handle on ours.
      const external = /^https?:\/\//i.test(href);
      return {
        tagName,
        attribs: external
          ? { ...attribs, rel: 'noopener noreferrer', target: '_blank' }
          : { ...withoutKeys(attribs, ['target', 'rel']) },
      };
    },
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy' } }),
  },
};

function withoutKeys(record: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

/** Removes everything SANITIZE_OPTIONS does not allow (scripts, handlers, javascript: links). */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

/** Markdown to safe HTML. */
export function renderMarkdown(markdown: string): string {
  return sanitizeArticleHtml(marked.parse(markdown) as string);
}

/** The words a reader reads: the text of the HTML, split on white space. */
export function countWords(html: string): number {
  const text = sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .trim();
  if (text === '') return 0;
  return text.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Reading time in whole minutes at 200 words a minute, at least 1. */
export const WORDS_PER_MINUTE = 200;
export function minutesToRead(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
