import { Extension, Node as TiptapNode } from '@tiptap/core';
import Document from '@tiptap/extension-document';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { Placeholder } from '@tiptap/extensions';
import type { Node as PmNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, TextSelection, type Transaction } from '@tiptap/pm/state';
import { EditorContent, type JSONContent, ReactNodeViewRenderer, useEditor } from '@tiptap/react';
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cutToFit, usedCharacters } from '../lib/characters';
import { Echoes } from '../lib/echoes';
import type { ChangeOperation, CutListener, EditorHandle } from '../lib/editor-handle';
import { fromSsml, type SsmlDocument, textToSend, toSsml } from '../lib/ssml-document';
import classes from './editor.module.css';
import type { PronouncedMarks } from './pronounced-marks';
import { PronouncedWords, usePronouncedMarks } from './pronounced-words-plugin';
import { type SpokenRange, SpokenWord, useSpokenWordHighlight } from './spoken-word-plugin';
import { TagChip } from './tag-chip';
import { tagPairsPlugin } from './tag-pairs-plugin';

/** ProseMirror JSON of a document (lines -> paragraphs, chips -> ssmlTag atoms). */
export function toEditorJson(ssml: string): JSONContent {
  return {
    type: 'doc',
    content: fromSsml(ssml).map((line) => ({
      type: 'paragraph',
      content: line.map((inline) =>
        inline.type === 'text'
          ? { type: 'text', text: inline.text }
          : { type: 'ssmlTag', attrs: { raw: inline.raw } },
      ),
    })),
  };
}

/** The SSML of the editor's ProseMirror document. */
export function fromEditorDoc(doc: PmNode): string {
  const lines: SsmlDocument = [];
  doc.forEach((paragraph) => {
    const line: SsmlDocument[number] = [];
    paragraph.forEach((child) => {
      if (child.isText) line.push({ type: 'text', text: child.text ?? '' });
      else if (child.type.name === 'ssmlTag')
        line.push({ type: 'tag', raw: String(child.attrs.raw) });
    });
    lines.push(line);
  });
  return toSsml(lines);
}

/** A transaction that puts `open` before and `close` after the selection. */
export function withTag(state: EditorState, open: string, close: string | null): Transaction {
  const type = state.schema.nodes.ssmlTag;
  const tr = state.tr;
  if (!type) return tr;
  // An all-selection (Ctrl+A) starts before the first paragraph; tags go inside it.
  const { from, to } = TextSelection.between(state.selection.$from, state.selection.$to);
  if (close) tr.insert(to, type.create({ raw: close }));
  tr.insert(from, type.create({ raw: open }));
  // The wrapped text stays selected (each chip is one position), so that the next tag wraps
  // the same words; a tag without content leaves the cursor after it.
  return tr.setSelection(
    close && to > from
      ? TextSelection.create(tr.doc, from + 1, to + 1)
      : TextSelection.create(tr.doc, close ? to + 2 : from + 1),
  );
}

export const SsmlTag = TiptapNode.create({
  name: 'ssmlTag',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return {
      raw: {
        default: '',
        parseHTML: (element) => element.getAttribute('data-ssml-tag') ?? '',
        renderHTML: (attributes) => ({ 'data-ssml-tag': attributes.raw }),
      },
    };
  },
  parseHTML() {
    return [{ tag: 'span[data-ssml-tag]' }];
  },
  renderHTML({ HTMLAttributes, node }) {
    return ['span', HTMLAttributes, String(node.attrs.raw)];
  },
  renderText({ node }) {
    return String(node.attrs.raw);
  },
  addNodeView() {
    return ReactNodeViewRenderer(TagChip, { as: 'span' });
  },
});

/** Where the plain text area was (text offsets) when the editor replaced it. */
export interface Handoff {
  from: number;
  to: number;
  /** It had the focus: the editor takes it. */
  focus: boolean;
}

export interface TextEditorProps {
  value: string;
  limit: number;
  onChange: (value: string, operation: ChangeOperation) => void;
  onUndo: () => void;
  onRedo: () => void;
  onCut: CutListener;
  label: string;
  /** The word being heard (spoken-word-plugin.ts), or null. */
  spoken?: SpokenRange | null;
  /** The words the user's lexicons change, marked (pronounced-words-plugin.ts). */
  pronounced?: PronouncedMarks | undefined;
  /** The plain text area this editor replaces (text-tab.tsx): its selection and focus. */
  handoff?: Handoff;
  /** The value is a sample text, which the first text typed or pasted replaces whole (issue 33). */
  sample?: boolean;
}

/**
 * The Text tab (issue 4, item 6): TipTap with the tags as inline chips. The document is the
 * page's SSML; the mapping of lib/ssml-document keeps both tabs on the same text.
 */
export const TextEditor = forwardRef<EditorHandle, TextEditorProps>(function TextEditor(
  {
    value,
    limit,
    onChange,
    onUndo,
    onRedo,
    onCut,
    label,
    spoken = null,
    pronounced,
    handoff,
    sample = false,
  },
  ref,
) {
  const latest = useRef({
    value,
    limit,
    onChange,
    onUndo,
    onRedo,
    onCut,
    sample,
    syncing: false,
    pasting: false,
  });
  latest.current = { ...latest.current, value, limit, onChange, onUndo, onRedo, onCut, sample };
  const echoes = useRef(new Echoes()).current;
  const { t } = useTranslation();
  const placeholder = useRef('');
  placeholder.current = t('editor.placeholder');

  const editor = useEditor({
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    extensions: [
      Document,
      Paragraph,
      Text,
      SsmlTag,
      SpokenWord,
      PronouncedWords,
      Placeholder.configure({ placeholder: () => placeholder.current }),
      Extension.create({
        name: 'parlaEditorRules',
        addKeyboardShortcuts() {
          return {
            'Mod-z': () => {
              latest.current.onUndo();
              return true;
            },
            'Mod-Shift-z': () => {
              latest.current.onRedo();
              return true;
            },
            'Mod-y': () => {
              latest.current.onRedo();
              return true;
            },
          };
        },
        addProseMirrorPlugins() {
          return [
            tagPairsPlugin(),
            new Plugin({
              // SPEC §5: typing is capped at the per-conversion limit.
              filterTransaction: (tr, state) => {
                if (!tr.docChanged || latest.current.syncing) return true;
                const after = usedCharacters(fromEditorDoc(tr.doc));
                return (
                  after <= latest.current.limit || after <= usedCharacters(fromEditorDoc(state.doc))
                );
              },
              props: {
                // Typed into the sample, the text replaces it in the same transaction (as in
                // the SSML tab): the editor never holds the sample and a keystroke together,
                // whatever the page has rendered yet.
                handleTextInput: (view, _from, _to, text) => {
                  if (!latest.current.sample) return false;
                  // Replaced once: the next keystroke goes after it, even before the page
                  // says it holds no sample any more.
                  latest.current.sample = false;
                  const end = view.state.doc.content.size - 1;
                  const tr = view.state.tr.insertText(text, 1, end);
                  view.dispatch(tr.setSelection(TextSelection.create(tr.doc, 1 + text.length)));
                  return true;
                },
                // SPEC §5: a paste is cut to what remains.
                handlePaste: (view, event) => {
                  if (latest.current.pasting) return false;
                  // Pasted into the sample, the text replaces it: the paste goes over it all,
                  // and is cut to the limit without the sample (the page's limit counts it).
                  const max = latest.current.sample
                    ? latest.current.limit - usedCharacters(fromEditorDoc(view.state.doc))
                    : latest.current.limit;
                  if (latest.current.sample) {
                    latest.current.sample = false;
                    const all = TextSelection.create(
                      view.state.doc,
                      1,
                      view.state.doc.content.size - 1,
                    );
                    view.dispatch(view.state.tr.setSelection(all));
                  }
                  const text = event.clipboardData?.getData('text/plain') ?? '';
                  const { from, to } = view.state.selection;
                  const measure = (candidate: string) =>
                    usedCharacters(
                      fromEditorDoc(view.state.tr.insertText(candidate, from, to).doc),
                    );
                  const cut = cutToFit(text, max, measure);
                  // What fits is pasted as usual (chips copied from this tab stay chips).
                  if (cut === text) return false;
                  latest.current.pasting = true;
                  try {
                    view.pasteText(cut);
                  } finally {
                    latest.current.pasting = false;
                  }
                  latest.current.onCut(cut, text);
                  return true;
                },
              },
            }),
          ];
        },
      }),
    ],
    content: toEditorJson(value),
    editorProps: {
      attributes: {
        'aria-label': label,
        'aria-multiline': 'true',
        role: 'textbox',
        class: classes.prose ?? '',
      },
    },
    onUpdate: ({ editor: current, transaction }) => {
      if (latest.current.syncing) return;
      const next = fromEditorDoc(current.state.doc);
      echoes.send(next);
      const operation =
        (transaction.getMeta('parla-operation') as ChangeOperation | undefined) ??
        (transaction.getMeta('uiEvent') === 'paste' ? 'paste' : 'edit');
      latest.current.onChange(next, operation);
    },
  });

  useSpokenWordHighlight(editor, spoken);
  usePronouncedMarks(editor, pronounced);

  // The document changed outside this tab (undo, redo, an upload): show it.
  useEffect(() => {
    if (!editor || editor.isDestroyed || echoes.isEcho(value)) return;
    if (value === fromEditorDoc(editor.state.doc)) return;
    latest.current.syncing = true;
    try {
      editor.commands.setContent(toEditorJson(value), { emitUpdate: false });
    } finally {
      latest.current.syncing = false;
    }
  }, [value, editor, echoes]);

  // Taking over from the plain text area: the same selection (a new line there is a paragraph
  // boundary here, two positions), and the focus if it had it. Before the handle is given, so
  // that a tag asked for in the meantime wraps that selection.
  const takenOver = useRef(handoff);
  useLayoutEffect(() => {
    const at = takenOver.current;
    if (!at || !editor || editor.isDestroyed) return;
    const takeOver = () => {
      if (editor.isDestroyed) return;
      const text = textToSend(fromEditorDoc(editor.state.doc));
      const position = (offset: number) =>
        Math.min(
          offset + 1 + (text.slice(0, offset).match(/\n/g)?.length ?? 0),
          editor.state.doc.content.size - 1,
        );
      editor.commands.setTextSelection({ from: position(at.from), to: position(at.to) });
      // Now, not at the next frame as the focus command does: a key pressed in between would
      // reach no editor.
      if (at.focus) editor.view.focus();
    };
    // The editable element joins the page when TipTap's EditorContent mounts; where that comes
    // after this effect (Preact, in the bundle: decision 026), right after this render, still
    // before the next key.
    if (editor.view.dom.isConnected) takeOver();
    else queueMicrotask(takeOver);
  }, [editor]);

  useImperativeHandle(
    ref,
    () => ({
      focus: () => editor?.commands.focus(),
      previewInsert(open, close) {
        return editor ? fromEditorDoc(withTag(editor.state, open, close).doc) : value;
      },
      hasSelection: () => Boolean(editor && !editor.state.selection.empty),
      selectedText: () => {
        if (!editor) return '';
        const { from, to } = editor.state.selection;
        return editor.state.doc.textBetween(from, to, '\n', '');
      },
      insertTag(open, close) {
        if (!editor) return;
        const tr = withTag(editor.state, open, close);
        tr.setMeta('parla-operation', `insert-${open.slice(1).split(/[\s/>]/)[0]}`);
        editor.view.dispatch(tr);
        editor.commands.focus();
      },
    }),
    [editor, value],
  );

  return <EditorContent editor={editor} className={classes.area} />;
});
