import type {
  AdminContentItem,
  AdminContentList,
  AdminContentSource,
  ContentKind,
} from '@parla/contract';
import { diffLines } from 'diff';

/** One page or article in every language: the cell of a language is undefined when missing. */
export interface TranslationRow {
  group: string;
  /** The first language's title (the default language's when it has one). */
  title: string;
  cells: Record<string, AdminContentItem | undefined>;
}

/**
 * The translations of each page (grouped by slug) or article (by translation key), side by
 * side in the content's language order; what a language lacks is an undefined cell.
 */
export function translationRows(list: AdminContentList, kind: ContentKind): TranslationRow[] {
  const rows = new Map<string, TranslationRow>();
  for (const item of list.items) {
    if (item.kind !== kind) continue;
    const row = rows.get(item.group) ?? { group: item.group, title: item.title, cells: {} };
    row.cells[item.language] = item;
    rows.set(item.group, row);
  }
  const first = list.languages[0]?.code;
  return [...rows.values()]
    .map((row) => ({ ...row, title: (first && row.cells[first]?.title) || row.title }))
    .sort((a, b) => a.group.localeCompare(b.group));
}

/** A document's text as a diff reads it: its front matter (one field a line), then its body. */
export function sourceText(source: AdminContentSource): string {
  return `${JSON.stringify(source.front_matter, null, 2)}\n\n${source.body}`;
}

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** The lines that a revision (`before`) and the draft (`after`) differ by, and around them. */
export function revisionDiff(before: AdminContentSource, after: AdminContentSource): DiffLine[] {
  return diffLines(sourceText(before), sourceText(after)).flatMap((part) =>
    part.value
      .replace(/\n$/, '')
      .split('\n')
      .map((text) => ({
        kind: part.added ? 'added' : part.removed ? 'removed' : 'same',
        text,
      })),
  );
}

/** The address a document has on the site ('default' has no language prefix). */
export function siteAddress(kind: ContentKind, language: string, slug: string): string {
  const prefix = language === 'default' ? '' : `/${language}`;
  return kind === 'pages' ? `${prefix}/${slug}` : `${prefix}/blog/article/${slug}`;
}

/** A local date and time input's value (YYYY-MM-DDTHH:mm) as an ISO instant. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The page's search-result title, as the server writes it (features/seo/meta.ts). */
export const seoTitle = (title: string) => `${title} | Parla`;
