/**
 * The static shell (issue 33 item 9, docs/decisions/049-static-shell.md): what the served HTML
 * draws before any script runs, in each language of the app. The header bar with the logo on
 * every page; on the convertor also the headline with its lead and the editor box, at their
 * final place and size, and on a laptop the player's box and the paragraph about Parla below
 * them (the CSS is apps/web/src/app/static-shell.css, which copies the metrics
 * of the components the app renders there). The app removes it when it first renders its page
 * (components/layout/app-layout.tsx).
 *
 * The build writes the English shell into index.html and every language's into `shell.json`;
 * the server writes the page's language's into the HTML it serves, with the headline and the
 * lead's link of the convertor's content (apps/server/src/features/seo/shell.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { TAG_LABEL_KEYS } from './src/features/convertor/lib/tag-labels.ts';

/** The app's languages (src/locales). */
const LOCALES = ['en', 'fr', 'de', 'es', 'ar'] as const;
const PRODUCT_NAME = 'Parla';

/** Where the server writes the convertor's headline and the lead's link (escaped). */
const SHELL_HEADLINE = '<!--shell:headline-->';
const SHELL_LINK = '<!--shell:link-->';
const SHELL_ABOUT = '<!--shell:about-->';

/** What shell.json holds per language: the header alone, and the convertor's whole shell. */
interface ShellFragments {
  header: string;
  convertor: string;
}

type Words = Record<string, unknown>;

function word(words: Words, key: string): string {
  const value = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Words | undefined)?.[part], words);
  if (typeof value !== 'string') throw new Error(`static shell: no word ${key}`);
  return value
    .replaceAll('{{product}}', PRODUCT_NAME)
    .replace(
      /[&<>"]/g,
      (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c as '&' | '<' | '>' | '"']};`,
    );
}

const LOGO =
  '<svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)"/><path d="M9 12v8M14 8v16M19 11v10M24 14v4" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>';

/** The paths of the convertor in a language ('en' has no prefix: SPEC §2). */
const home = (locale: string) => (locale === 'en' ? '/convertor' : `/${locale}/convertor`);

function header(words: Words, locale: string): string {
  return `<header class="shell-header" data-drawn-first><div class="shell-container shell-bar"><a class="shell-logo" href="${home(locale)}" aria-label="${word(words, 'nav.logoHome')}">${LOGO}<span>${PRODUCT_NAME}</span></a></div></header>`;
}

function convertor(words: Words, locale: string): string {
  const tools = Object.values(TAG_LABEL_KEYS)
    .map((key) => `<span class="shell-tool">${word(words, key)}</span>`)
    .join('');
  // The counter's numbers are not known before the plans are: the app's placeholder for them.
  const counter = ['counter.used', 'counter.perConvert', 'counter.remaining']
    .map((key) => `<span>${word(words, key)} <strong>…</strong></span>`)
    .join('');
  // The shell draws; it does nothing: its controls are pictures of the app's (aria-hidden).
  return `${header(words, locale)}<main class="shell-main"><div class="shell-container shell-page"><div class="shell-intro" data-drawn-first><div class="shell-heading"><h1 class="shell-title">${SHELL_HEADLINE}</h1><span class="shell-button shell-listen" aria-hidden="true"><span class="shell-icon"></span>${word(words, 'convertor.listen')}</span></div><p class="shell-lead">${word(words, 'convertor.lead')} ${SHELL_LINK}</p></div><div class="shell-layout"><div><section class="shell-card" data-drawn-first aria-label="${word(words, 'convertor.editor')}"><div class="shell-tabs" aria-hidden="true"><span class="shell-tab">${word(words, 'convertor.textTab')}</span><span class="shell-tab">SSML</span></div><div class="shell-toolbar" aria-hidden="true">${tools}<span class="shell-tools-end"><span class="shell-icon-tool"></span><span class="shell-icon-tool"></span><span class="shell-tool">${word(words, 'toolbar.upload')}</span></span></div><p class="shell-note">${word(words, 'convertor.sampleNote')}</p><div class="shell-area"><p>${word(words, 'convertor.sample')}</p></div><div class="shell-actions" aria-hidden="true"><span class="shell-counter">${counter}</span><span class="shell-button shell-convert">${word(words, 'convertor.convert')}</span></div><p class="shell-empty"></p></section><section class="shell-card shell-player" data-drawn-first aria-label="${word(words, 'convertor.player')}"><p class="shell-note">${word(words, 'convertor.playerEmpty')}</p></section></div><div></div></div><section class="shell-about" data-drawn-first aria-label="${word(words, 'convertor.about')}">${SHELL_ABOUT}</section></div></main>`;
}

export function staticShell(): Plugin {
  const words = Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      JSON.parse(
        readFileSync(path.join(import.meta.dirname, 'src/locales', `${locale}.json`), 'utf8'),
      ) as Words,
    ]),
  ) as Record<(typeof LOCALES)[number], Words>;
  const fragments: Record<string, ShellFragments> = Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      { header: header(words[locale], locale), convertor: convertor(words[locale], locale) },
    ]),
  );
  return {
    name: 'parla-static-shell',
    // index.html as built: the English convertor's shell, with the English fallback headline
    // (the server writes the page's own in its place).
    transformIndexHtml(html) {
      const english = fragments.en?.convertor ?? '';
      return html.replace(
        '<!--static-shell-->',
        `<div id="static-shell">${english
          .replace(SHELL_HEADLINE, word(words.en, 'fallback.titlePlain'))
          .replace(SHELL_LINK, '')
          .replace(SHELL_ABOUT, word(words.en, 'fallback.text'))}</div>`,
      );
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'shell.json', source: JSON.stringify(fragments) });
    },
  };
}
