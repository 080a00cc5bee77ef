import { autocompletion, closeBrackets, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap } from '@codemirror/commands';
import { xml } from '@codemirror/lang-xml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { Annotation, EditorState, Prec, type TransactionSpec } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cutToFit, usedCharacters } from '../lib/characters';
import { Echoes } from '../lib/echoes';
import type { ChangeOperation, CutListener, EditorHandle } from '../lib/editor-handle';
import { wordsOf } from '../lib/ssml-document';
import { offsetOf } from '../lib/ssml-error';
import { ssmlElements } from '../lib/ssml-schema';
import classes from './editor.module.css';
import { NO_PRONOUNCED_MARKS, type PronouncedMarks } from './pronounced-marks';
import { pronouncedWords, setPronouncedMarks } from './ssml-pronounced-words';

const External = Annotation.define<boolean>();

/**
 * XML colours as CSS variables (editor.module.css sets them per colour scheme), so both the
 * light and the dark scheme meet WCAG AA contrast.
 */
const ssmlHighlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.angleBracket], color: 'var(--parla-code-tag)' },
  { tag: tags.attributeName, color: 'var(--parla-code-attribute)' },
  { tag: [tags.attributeValue, tags.string], color: 'var(--parla-code-value)' },
  {
    tag: [tags.character, tags.processingInstruction, tags.documentMeta],
    color: 'var(--parla-code-entity)',
  },
  { tag: tags.comment, color: 'var(--mantine-color-dimmed)', fontStyle: 'italic' },
  { tag: tags.invalid, color: 'var(--parla-code-invalid)' },
]);

/** Colours from the Mantine theme's CSS variables, so light and dark schemes both read well. */
const themeColours = EditorView.theme({
  '&': {
    backgroundColor: 'var(--mantine-color-body)',
    color: 'var(--mantine-color-text)',
    fontSize: 'var(--mantine-font-size-sm)',
  },
  '.cm-content': {
    caretColor: 'var(--mantine-color-text)',
    fontFamily: 'var(--mantine-font-family-monospace)',
  },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--mantine-color-text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--mantine-color-default-hover)',
    color: 'var(--mantine-color-dimmed)',
    borderRight: '1px solid var(--mantine-color-default-border)',
  },
  '.cm-tooltip': {
    backgroundColor: 'var(--mantine-color-body)',
    color: 'var(--mantine-color-text)',
    border: '1px solid var(--mantine-color-default-border)',
  },
});

interface SsmlEditorProps {
  value: string;
  limit: number;
  /** The server's SSML error, shown at its line and column. */
  error: { line: number; column: number; reason: string } | null;
  onChange: (value: string, operation: ChangeOperation) => void;
  onUndo: () => void;
  onRedo: () => void;
  onCut: CutListener;
  label: string;
  /** The value is a sample text, which the first text typed or pasted replaces whole (issue 33). */
  sample?: boolean;
  /** The words the user's lexicons change, marked (ssml-pronounced-words.ts). */
  pronounced?: PronouncedMarks | undefined;
}

/**
 * The SSML tab (issue 4, item 6): CodeMirror 6 with XML highlighting, completion and lint, and
 * the words the user's lexicons change marked as in the Text tab (issue 32).
 */
const SsmlEditor = forwardRef<EditorHandle, SsmlEditorProps>(function SsmlEditor(
  { value, limit, error, onChange, onUndo, onRedo, onCut, label, sample = false, pronounced },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ limit, onChange, onUndo, onRedo, onCut, sample });
  latest.current = { limit, onChange, onUndo, onRedo, onCut, sample };
  const echoes = useRef(new Echoes()).current;
  const { t } = useTranslation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: created once; later values go through refs and the sync effect.
  useEffect(() => {
    if (!host.current) return;
    // Typed or pasted into the sample, the text replaces it in the same transaction.
    const replacesSample = EditorState.transactionFilter.of((tr) => {
      if (!latest.current.sample || !tr.docChanged) return tr;
      if (!tr.isUserEvent('input.type') && !tr.isUserEvent('input.paste')) return tr;
      let inserted = '';
      tr.changes.iterChanges((_from, _to, _f, _t, text) => {
        inserted += text.toString();
      });
      return {
        changes: { from: 0, to: tr.startState.doc.length, insert: inserted },
        selection: { anchor: inserted.length },
        userEvent: tr.isUserEvent('input.paste') ? 'input.paste' : 'input.type',
      };
    });
    const capped = EditorState.transactionFilter.of((tr) => {
      if (!tr.docChanged || tr.annotation(External)) return tr;
      const { limit: max } = latest.current;
      const after = usedCharacters(tr.newDoc.toString());
      const before = usedCharacters(tr.startState.doc.toString());
      if (after <= max || after <= before) return tr;
      // SPEC §5: a paste (or drop) is cut to what remains; typing past the limit is refused.
      if (!tr.isUserEvent('input.paste') && !tr.isUserEvent('input.drop')) return [];
      const changes: { from: number; to: number; text: string }[] = [];
      tr.changes.iterChanges((from, to, _f, _t, inserted) =>
        changes.push({ from, to, text: inserted.toString() }),
      );
      const change = changes[0];
      if (changes.length !== 1 || !change) return [];
      const doc = tr.startState.doc.toString();
      const head = doc.slice(0, change.from);
      const tail = doc.slice(change.to);
      const cut = cutToFit(change.text, max, (candidate) =>
        usedCharacters(`${head}${candidate}${tail}`),
      );
      // The page is told after this transaction, not from inside CodeMirror's update.
      queueMicrotask(() => latest.current.onCut(cut, change.text));
      const spec: TransactionSpec = {
        changes: { from: change.from, to: change.to, insert: cut },
        selection: { anchor: change.from + cut.length },
        userEvent: 'input.paste',
      };
      return spec;
    });
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          Prec.highest(
            keymap.of([
              {
                key: 'Mod-z',
                run: () => {
                  latest.current.onUndo();
                  return true;
                },
              },
              {
                key: 'Mod-Shift-z',
                run: () => {
                  latest.current.onRedo();
                  return true;
                },
              },
              {
                key: 'Mod-y',
                run: () => {
                  latest.current.onRedo();
                  return true;
                },
              },
            ]),
          ),
          themeColours,
          highlightSpecialChars(),
          drawSelection(),
          syntaxHighlighting(ssmlHighlight),
          closeBrackets(),
          keymap.of(defaultKeymap),
          lineNumbers(),
          EditorView.lineWrapping,
          xml({
            elements: ssmlElements((tag, count) => t('toolbar.insertHint', { tag, count })),
          }),
          autocompletion(),
          keymap.of(completionKeymap),
          lintGutter(),
          pronouncedWords(),
          replacesSample,
          capped,
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged || update.transactions.some((tr) => tr.annotation(External)))
              return;
            const paste = update.transactions.some((tr) => tr.isUserEvent('input.paste'));
            const text = update.state.doc.toString();
            echoes.send(text);
            latest.current.onChange(text, paste ? 'paste' : 'edit');
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // The document changed outside this tab (undo, redo, an upload, a tag from the toolbar).
  useEffect(() => {
    const editor = view.current;
    if (!editor || echoes.isEcho(value)) return;
    const current = editor.state.doc.toString();
    if (current === value) return;
    // The caret after the new text (a sample replaced by the first keystroke goes on there).
    editor.dispatch({
      changes: { from: 0, to: current.length, insert: value },
      selection: { anchor: value.length },
      annotations: External.of(true),
    });
  }, [value, echoes]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const text = editor.state.doc.toString();
    const diagnostics = error
      ? (() => {
          const from = offsetOf(text, error.line, error.column);
          return [
            {
              from,
              to: Math.min(text.length, from + 1),
              severity: 'error' as const,
              message: error.reason,
            },
          ];
        })()
      : [];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [error]);

  useEffect(() => {
    view.current?.dispatch({ effects: setPronouncedMarks.of(pronounced ?? NO_PRONOUNCED_MARKS) });
  }, [pronounced]);

  useImperativeHandle(ref, () => ({
    focus: () => view.current?.focus(),
    previewInsert(open, close) {
      const editor = view.current;
      if (!editor) return value;
      const doc = editor.state.doc.toString();
      const { from, to } = editor.state.selection.main;
      return `${doc.slice(0, from)}${open}${doc.slice(from, to)}${close ?? ''}${doc.slice(to)}`;
    },
    hasSelection: () => Boolean(view.current && !view.current.state.selection.main.empty),
    selectedText: () => {
      const editor = view.current;
      if (!editor) return '';
      const { from, to } = editor.state.selection.main;
      return wordsOf(editor.state.sliceDoc(from, to));
    },
    insertTag(open, close) {
      const editor = view.current;
      if (!editor) return;
      const { from, to } = editor.state.selection.main;
      editor.dispatch({
        changes: [{ from, insert: open }, ...(close ? [{ from: to, insert: close }] : [])],
        // The wrapped text stays selected, so that the next tag wraps the same words.
        selection:
          close && to > from
            ? { anchor: from + open.length, head: to + open.length }
            : { anchor: to + open.length + (close?.length ?? 0) },
        userEvent: 'input.tag',
        annotations: External.of(true),
      });
      latest.current.onChange(
        editor.state.doc.toString(),
        `insert-${open.slice(1).split(/[\s/>]/)[0]}`,
      );
      editor.focus();
    },
  }));

  return <div ref={host} className={classes.code} />;
});

export default SsmlEditor;
