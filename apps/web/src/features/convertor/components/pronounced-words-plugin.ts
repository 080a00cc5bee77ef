import { findLexiconMatches } from '@parla/contract';
import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Editor } from '@tiptap/react';
import { useEffect } from 'react';
import {
  NO_PRONOUNCED_MARKS,
  type PronouncedMarks,
  pronouncedAttributes,
} from './pronounced-marks';

/**
 * The words the user's lexicons change, marked in the Text tab (issue 32, item 3): a
 * ProseMirror decoration (a `<mark>` whose title says how the word is said and by which
 * lexicon), so the document is untouched, as the heard word's (spoken-word-plugin.ts).
 */

const key = new PluginKey<{ marks: PronouncedMarks; set: DecorationSet }>('parlaPronounced');

/** The decorations of the marked words of a document (each text run between chips). */
export function pronouncedDecorations(doc: PmNode, marks: PronouncedMarks): DecorationSet {
  if (marks.entries.length === 0) return DecorationSet.empty;
  const decorations: Decoration[] = [];
  doc.descendants((node, position) => {
    if (!node.isText) return true;
    for (const match of findLexiconMatches(node.text ?? '', marks.entries)) {
      decorations.push(
        Decoration.inline(position + match.start, position + match.end, {
          nodeName: 'mark',
          ...pronouncedAttributes(marks, match),
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
          init: () => ({ marks: NO_PRONOUNCED_MARKS, set: DecorationSet.empty }),
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

/** Marks the words of `marks` in the editor (none: no marks). */
export function usePronouncedMarks(editor: Editor | null, marks: PronouncedMarks | undefined) {
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.view.dispatch(
      editor.state.tr.setMeta(key, marks ?? NO_PRONOUNCED_MARKS).setMeta('addToHistory', false),
    );
  }, [editor, marks]);
}
