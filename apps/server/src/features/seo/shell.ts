import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type CatalogueCounts,
  fillCatalogueCounts,
  firstTag,
  type PageContent,
  visibleSection,
  withLanguagePrefix,
} from '@parla/contract';

/**
 * The static shell of the web app (issue 33 item 9, docs/decisions/049-static-shell.md): the
 * build writes each language's into shell.json (apps/web/static-shell.ts), the header alone and
 * the convertor's whole shell, where the convertor's headline, its lead's link and the paragraph
 * about Parla are marked.
 */
type Shells = Record<string, { header: string; convertor: string }>;

const HEADLINE = '<!--shell:headline-->';
const LINK = '<!--shell:link-->';
const ABOUT = '<!--shell:about-->';
/** The shell in index.html as built, before the app's root. */
const SHELL = /<div id="static-shell">[\s\S]*?<\/div>(?=\s*<div id="root")/;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );

export interface ShellPage {
  /** The web app's language of the page (its locale file: en, fr, de, es, ar). */
  locale: string;
  /** The page's language code as its content has it ('default' for the unprefixed one). */
  language: string;
  /** The convertor's content in that language; undefined on any other page. */
  convertor?: PageContent | undefined;
}

/**
 * Writes the page's language's shell into index.html: on the convertor the headline and lead's
 * link of its content (the catalogue's counts filled in, as the content call does), on any other
 * page the header alone. Without shell.json (no build), the HTML is left as it is.
 */
export function createShellWriter(webRoot: string, counts: () => Promise<CatalogueCounts>) {
  let shells: Promise<Shells | null> | undefined;
  const load = () => {
    shells ??= readFile(path.join(webRoot, 'shell.json'), 'utf8').then(
      (text) => JSON.parse(text) as Shells,
      () => null,
    );
    return shells;
  };
  return async (html: string, page: ShellPage): Promise<string> => {
    const all = await load();
    const shell = all?.[page.locale] ?? all?.en;
    if (!shell) return html;
    const intro = page.convertor ? visibleSection(page.convertor, 'intro') : null;
    const title = firstTag(intro, 'title')?.content;
    let drawn = shell.header;
    if (title) {
      const catalogue = await counts();
      const fill = (text: string) => escapeHtml(fillCatalogueCounts(text, catalogue, page.locale));
      const link = firstTag(intro, 'link');
      drawn = shell.convertor
        .replace(HEADLINE, fill(title))
        .replace(ABOUT, fill(firstTag(intro, 'text')?.content ?? ''))
        .replace(
          LINK,
          link?.link
            ? `<a href="${escapeHtml(withLanguagePrefix(page.language, link.link))}">${escapeHtml(link.label ?? link.link)}</a>`
            : '',
        );
    }
    return html.replace(SHELL, () => `<div id="static-shell">${drawn}</div>`);
  };
}
