import type { EditorHistoryEntry, EditorTarget } from '@parla/contract';

/**
 * The editor's undo and redo stacks (SPEC §3 "Editor history entry", §4 "Editor"): each edit,
 * paste or tag insertion pushes an entry; consecutive edits of the same tab merge into one
 * (within `MERGE_WINDOW_MS` of each other), so one Ctrl+Z undoes a burst of typing.
 */

export const MERGE_WINDOW_MS = 1000;

export interface History {
  undo: EditorHistoryEntry[];
  redo: EditorHistoryEntry[];
  /** When the last merged edit happened (ms), to decide whether the next one merges. */
  lastEditAt: number;
}

export const EMPTY_HISTORY: History = { undo: [], redo: [], lastEditAt: 0 };

export function record(
  history: History,
  entry: { operation: string; target: EditorTarget; old_version: string; new_version: string },
  now: number,
): History {
  if (entry.old_version === entry.new_version) return history;
  const last = history.undo.at(-1);
  const merges =
    entry.operation === 'edit' &&
    last?.operation === 'edit' &&
    last.target === entry.target &&
    last.new_version === entry.old_version &&
    now - history.lastEditAt <= MERGE_WINDOW_MS;
  const undo = merges
    ? [...history.undo.slice(0, -1), { ...last, new_version: entry.new_version }]
    : [...history.undo, entry];
  return { undo, redo: [], lastEditAt: entry.operation === 'edit' ? now : 0 };
}

/** Answers the history after an undo and the version to show, or null when there is nothing. */
export function undo(history: History): { history: History; version: string } | null {
  const entry = history.undo.at(-1);
  if (!entry) return null;
  return {
    history: { undo: history.undo.slice(0, -1), redo: [...history.redo, entry], lastEditAt: 0 },
    version: entry.old_version,
  };
}

export function redo(history: History): { history: History; version: string } | null {
  const entry = history.redo.at(-1);
  if (!entry) return null;
  return {
    history: { undo: [...history.undo, entry], redo: history.redo.slice(0, -1), lastEditAt: 0 },
    version: entry.new_version,
  };
}
