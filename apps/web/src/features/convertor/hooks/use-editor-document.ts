import type { EditorTarget } from '@parla/contract';
import { useCallback, useState } from 'react';
import { EMPTY_HISTORY, type History, record, redo, undo } from '../lib/history';

/** The page's one document (the SSML both tabs edit) with its undo and redo stacks. */
export function useEditorDocument(initial: string) {
  const [state, setState] = useState<{ ssml: string; history: History }>({
    ssml: initial,
    history: EMPTY_HISTORY,
  });

  const change = useCallback((next: string, operation: string, target: EditorTarget) => {
    setState((current) => ({
      ssml: next,
      history: record(
        current.history,
        { operation, target, old_version: current.ssml, new_version: next },
        Date.now(),
      ),
    }));
  }, []);

  const onUndo = useCallback(() => {
    setState((current) => {
      const result = undo(current.history);
      return result ? { ssml: result.version, history: result.history } : current;
    });
  }, []);

  const onRedo = useCallback(() => {
    setState((current) => {
      const result = redo(current.history);
      return result ? { ssml: result.version, history: result.history } : current;
    });
  }, []);

  return {
    ssml: state.ssml,
    canUndo: state.history.undo.length > 0,
    canRedo: state.history.redo.length > 0,
    change,
    undo: onUndo,
    redo: onRedo,
  };
}
