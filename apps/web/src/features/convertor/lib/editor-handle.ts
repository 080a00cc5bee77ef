/** What the toolbar and the page ask of either tab's editor. */
export interface EditorHandle {
  /** Puts `open` before and `close` after the selection (or `open` alone at the cursor). */
  insertTag(open: string, close: string | null): void;
  /** The document with the tag inserted, to check its length before inserting it. */
  previewInsert(open: string, close: string | null): string;
  /** Some text is selected (a tag with content wraps a selection; it is never inserted empty). */
  hasSelection(): boolean;
  /** The selected words as text (tags left out), '' when nothing is selected. */
  selectedText(): string;
  focus(): void;
}

/** How the editors report a change of the document to the page's history. */
export type ChangeOperation = 'edit' | 'paste' | `insert-${string}`;

/**
 * Called when a paste was cut to fit the per-conversion limit (SPEC §5), with what was kept
 * and what was pasted, so the page can say so (issue 18, item 4).
 */
export type CutListener = (kept: string, pasted: string) => void;
