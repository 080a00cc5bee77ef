import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Editor } from '@tiptap/react';
import { useEffect } from 'react';
import { findPronounced, type PronouncedWord } from '../lib/pronounced';
import classes from './spoken-word.module.css';

/**
 * The words the user's lexicons change, marked in the Text tab (issue 32, item 3): a
 * ProseMirror decoration (a `<mark>` whose title says how the word is said and by which
 * lexicon), so the document is untouched, as the heard word's (spoken-word-plugin.ts).
 */

export interface PronouncedMarks {
  words: readonly PronouncedWord[];
  /** The mark's title: how the word is said and by which lexicon. */
  describe: (word: PronouncedWord) => string;
}

const key = new PluginKey<{ marks: PronouncedMarks; set: DecorationSet }>('parlaPronounced');
const NONE: PronouncedMarks = { words: [], describe: () => '' };

/** The decorations of the marked words of a document (each text run between chips). */
export function pronouncedDecorations(doc: PmNode, marks: PronouncedMarks): DecorationSet {
  if (marks.words.length === 0) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.descendants((node, position) => {
    if (!node.isText) return true;
    for (const range of findPronounced(node.text ?? '', marks.words)) {
      decorations.push(
        Decoration.inline(position + range.from, position + range.to, {
          nodeName: 'mark',
          class: classes.pronounced ?? '',
          title: marks.describe(range.word),
          'data-pronounced': range.word.lexicon,
        }),
      );
    }
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

export const PronouncedWords = Extension.create({
  name: 'parlaPronouncedWords',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key,
        state: {
          init: () => ({ marks: NONE, set: DecorationSet.empty }),
          apply(tr, value) {
            const next = tr.getMeta(key) as PronouncedMarks | undefined;
            if (next) return { marks: next, set: pronouncedDecorations(tr.doc, next) };
            if (!tr.docChanged) return value;
            return { marks: value.marks, set: pronouncedDecorations(tr.doc, value.marks) };
          },
        },
        props: {
          decorations: (state) => key.getState(state)?.set,
        },
      }),
    ];
  },
});

/** Marks `marks.words` in the editor (none: no marks). */
export function usePronouncedMarks(editor: Editor | null, marks: PronouncedMarks | undefined) {
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.view.dispatch(
      editor.state.tr.setMeta(key, marks ?? NONE).setMeta('addToHistory', false),
    );
  }, [editor, marks]);
}
