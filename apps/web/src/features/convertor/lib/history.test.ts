import { describe, expect, it } from 'vitest';
import { EMPTY_HISTORY, MERGE_WINDOW_MS, record, redo, undo } from './history';

const edit = (old_version: string, new_version: string, operation = 'edit') => ({
  operation,
  target: 'TEXT' as const,
  old_version,
  new_version,
});

describe('the undo and redo stacks', () => {
  it('merges consecutive edits and keeps other operations apart', () => {
    let history = record(EMPTY_HISTORY, edit('', 'a'), 1000);
    history = record(history, edit('a', 'ab'), 1200);
    history = record(history, edit('ab', 'ab<break time="1s" />', 'insert-pause'), 1300);
    history = record(history, edit('ab<break time="1s" />', 'ab<break time="1s" />c'), 1400);
    history = record(
      history,
      edit('ab<break time="1s" />c', 'ab<break time="1s" />cd'),
      1400 + MERGE_WINDOW_MS + 1,
    );
    expect(history.undo.map((e) => [e.operation, e.old_version, e.new_version])).toEqual([
      ['edit', '', 'ab'],
      ['insert-pause', 'ab', 'ab<break time="1s" />'],
      ['edit', 'ab<break time="1s" />', 'ab<break time="1s" />c'],
      ['edit', 'ab<break time="1s" />c', 'ab<break time="1s" />cd'],
    ]);
  });

  it('undoes and redoes, and a new edit clears the redo stack', () => {
    let history = record(EMPTY_HISTORY, edit('', 'a', 'paste'), 0);
    history = record(history, edit('a', 'ab', 'paste'), 0);
    const undone = undo(history);
    expect(undone?.version).toBe('a');
    const redone = undone && redo(undone.history);
    expect(redone?.version).toBe('ab');
    const again = undone && record(undone.history, edit('a', 'ax'), 10);
    expect(again?.redo).toEqual([]);
    expect(undo(EMPTY_HISTORY)).toBeNull();
    expect(redo(EMPTY_HISTORY)).toBeNull();
  });
});
