import {
  type ClipboardEvent,
  forwardRef,
  type KeyboardEvent,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { cutToFit, usedCharacters } from '../lib/characters';
import type { EditorHandle } from '../lib/editor-handle';
import { hasMarkup, type SsmlDocument, textToSend, toSsml, wordsOf } from '../lib/ssml-document';
import classes from './editor.module.css';
import type { Handoff, TextEditor as RichEditor, TextEditorProps } from './text-editor';

/**
 * The Text tab as a first visit gets it (issue 18, item 5; decision 024): a plain text area
 * with the editor's look and rules (the per-conversion limit, a paste cut to fit, the page's
 * undo and redo), while the TipTap editor and its chips, about 100 kB of JavaScript, load only
 * when they are needed: the visitor points at, touches or focuses the text, uses the toolbar,
 * opens a document with tags, or a word is being heard. The text, the selection and the focus
 * pass to the editor when it arrives, in the same task as the last keystroke it has to keep.
 */

let loaded: typeof RichEditor | undefined;
let loading: Promise<typeof RichEditor> | undefined;
function loadRichEditor(): Promise<typeof RichEditor> {
  loading ??= import('./text-editor').then(
    (module) => {
      loaded = module.TextEditor;
      return module.TextEditor;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The SSML of a plain text: one line per paragraph, `&` and `<` escaped. */
function ssmlOf(text: string): string {
  return toSsml(text.split('\n').map((line) => (line ? [{ type: 'text', text: line }] : [])));
}

/**
 * The SSML of a plain text with `open` at `from` and `close` at `to` (offsets in the text),
 * as the editor would insert them around a selection.
 */
export function ssmlWithTag(
  text: string,
  from: number,
  to: number,
  open: string,
  close: string | null,
): string {
  const tags: [number, string][] = close
    ? [
        [from, open],
        [to, close],
      ]
    : [[from, open]];
  let start = 0;
  const lines: SsmlDocument = text.split('\n').map((line) => {
    const end = start + line.length;
    const inlines: SsmlDocument[number] = [];
    let cursor = start;
    for (const [at, raw] of tags) {
      if (at < start || at > end) continue;
      if (at > cursor) inlines.push({ type: 'text', text: text.slice(cursor, at) });
      inlines.push({ type: 'tag', raw });
      cursor = at;
    }
    if (end > cursor) inlines.push({ type: 'text', text: text.slice(cursor, end) });
    start = end + 1;
    return inlines;
  });
  return toSsml(lines);
}

export const TextTab = forwardRef<EditorHandle, TextEditorProps>(function TextTab(props, ref) {
  const {
    value,
    limit,
    onChange,
    onUndo,
    onRedo,
    onCut,
    label,
    spoken = null,
    pronounced,
    sample = false,
  } = props;
  const { t } = useTranslation();
  const [swap, setSwap] = useState<{ Rich: typeof RichEditor; handoff?: Handoff } | undefined>(
    () => loaded && { Rich: loaded },
  );
  const area = useRef<HTMLTextAreaElement>(null);
  const rich = useRef<EditorHandle | null>(null);
  const pending = useRef<((editor: EditorHandle) => void)[]>([]);
  const caret = useRef<number | null>(null);

  const ready = swap !== undefined;
  const load = useCallback(() => {
    if (ready) return;
    loadRichEditor().then(
      (Rich) => {
        const textarea = area.current;
        const handoff = textarea
          ? {
              from: textarea.selectionStart,
              to: textarea.selectionEnd,
              focus: document.activeElement === textarea,
            }
          : undefined;
        // Rendered now, in this task: no keystroke can fall between the two editors.
        flushSync(() => setSwap({ Rich, ...(handoff && { handoff }) }));
      },
      // Offline or a failed deployment: the plain text area goes on working.
      () => undefined,
    );
  }, [ready]);

  // Chips, the heard word and the words of the user's lexicons need the editor.
  const markup = hasMarkup(value);
  const marked = Boolean(pronounced?.entries.length);
  useEffect(() => {
    if (spoken || markup || marked) load();
  }, [spoken, markup, marked, load]);

  useLayoutEffect(() => {
    if (caret.current === null) return;
    area.current?.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const attach = useCallback((editor: EditorHandle | null) => {
    rich.current = editor;
    if (editor) for (const action of pending.current.splice(0)) action(editor);
  }, []);

  useImperativeHandle(ref, () => {
    const textarea = () => area.current;
    const text = () => textToSend(value);
    return {
      focus: () => (rich.current ? rich.current.focus() : textarea()?.focus()),
      hasSelection: () =>
        rich.current
          ? rich.current.hasSelection()
          : (textarea()?.selectionStart ?? 0) !== (textarea()?.selectionEnd ?? 0),
      selectedText() {
        if (rich.current) return rich.current.selectedText();
        const at = textarea();
        return at ? at.value.slice(at.selectionStart, at.selectionEnd) : '';
      },
      previewInsert(open, close) {
        if (rich.current) return rich.current.previewInsert(open, close);
        const at = textarea();
        return ssmlWithTag(text(), at?.selectionStart ?? 0, at?.selectionEnd ?? 0, open, close);
      },
      insertTag(open, close) {
        if (rich.current) return rich.current.insertTag(open, close);
        pending.current.push((editor) => editor.insertTag(open, close));
        load();
      },
    };
  }, [value, load]);

  if (swap) {
    const { Rich, handoff } = swap;
    return <Rich {...props} ref={attach} {...(handoff && { handoff })} />;
  }

  const change = (next: string) => {
    const ssml = ssmlOf(next);
    // SPEC §5: typing is capped at the per-conversion limit.
    if (usedCharacters(ssml) > limit && usedCharacters(ssml) > usedCharacters(value)) return;
    onChange(ssml, 'edit');
  };
  // A paste is put in by hand (also one a script sends, which the browser would not insert),
  // cut to what remains (SPEC §5), with the cursor after it.
  const paste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    event.preventDefault();
    // The words of a document with tags are shown read-only: editing them would drop its tags.
    if (markup) return;
    const textarea = event.currentTarget;
    const pasted = event.clipboardData.getData('text/plain').replace(/\r\n?/g, '\n');
    // Pasted into the sample, the text replaces it whole (issue 33).
    const before = sample ? '' : textarea.value.slice(0, textarea.selectionStart);
    const after = sample ? '' : textarea.value.slice(textarea.selectionEnd);
    const cut = cutToFit(pasted, limit, (candidate) =>
      usedCharacters(ssmlOf(before + candidate + after)),
    );
    const next = ssmlOf(before + cut + after);
    caret.current = before.length + cut.length;
    if (next !== value) onChange(next, 'paste');
    if (cut !== pasted) onCut(cut, pasted);
  };
  const keys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    // The page's history, shared with the other tab, rather than the text area's own.
    if (key === 'z' && !event.shiftKey) onUndo();
    else if ((key === 'z' && event.shiftKey) || key === 'y') onRedo();
    else return;
    event.preventDefault();
  };

  return (
    <div className={classes.area}>
      <textarea
        ref={area}
        className={`${classes.prose} ${classes.plain}`}
        aria-label={label}
        placeholder={t('editor.placeholder')}
        // Until the chips arrive, a document with tags shows its words and waits.
        value={markup ? wordsOf(value) : textToSend(value)}
        readOnly={markup}
        spellCheck
        onChange={(event) => change(event.currentTarget.value)}
        onPaste={paste}
        onKeyDown={keys}
        onPointerEnter={load}
        onPointerDown={load}
        onFocus={load}
      />
    </div>
  );
});
