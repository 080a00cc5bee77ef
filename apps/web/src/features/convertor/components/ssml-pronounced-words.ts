import { syntaxTree } from '@codemirror/language';
import {
  type EditorState,
  type Extension,
  type Range,
  StateEffect,
  StateField,
} from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { findLexiconMatches } from '@parla/contract';
import {
  NO_PRONOUNCED_MARKS,
  type PronouncedMarks,
  pronouncedAttributes,
} from './pronounced-marks';

/**
 * The words the user's lexicons change, marked in the SSML tab (issue 32, item 3) as in the Text
 * tab (pronounced-words-plugin.ts): a CodeMirror decoration over the words of the document's
 * text, never inside a tag, an attribute or a comment, nor in the elements whose words the
 * lexicons leave alone (`<say-as>` and `<phoneme>` say them their own way; `<sub>` says its
 * alias instead). Loaded with the SSML tab.
 */

/** Sets the marks (none: `NO_PRONOUNCED_MARKS`). */
export const setPronouncedMarks = StateEffect.define<PronouncedMarks>();

const marksField = StateField.define<PronouncedMarks>({
  create: () => NO_PRONOUNCED_MARKS,
  update(marks, tr) {
    for (const effect of tr.effects) if (effect.is(setPronouncedMarks)) return effect.value;
    return marks;
  },
});

/** A node of the parsed XML (@lezer/common's, through the language package). */
type SyntaxNode = ReturnType<typeof syntaxTree>['topNode'];

/** Elements whose text the lexicons do not change (packages/speech/src/lexicons/apply.ts). */
const UNCHANGED = new Set(['say-as', 'phoneme', 'sub']);

/** Whether a Text node is inside one of the elements the lexicons leave alone. */
function leftAlone(state: EditorState, text: SyntaxNode): boolean {
  for (let node = text.parent; node; node = node.parent) {
    if (node.name !== 'Element') continue;
    const name = node.firstChild?.getChild('TagName');
    if (name && UNCHANGED.has(state.sliceDoc(name.from, name.to))) return true;
  }
  return false;
}

/**
 * The marks of the words between `from` and `to` (the whole document by default) as far as the
 * document is parsed: each text run of the XML matched as the server matches it.
 */
export function ssmlPronouncedDecorations(
  state: EditorState,
  marks: PronouncedMarks,
  ranges: readonly { from: number; to: number }[] = [{ from: 0, to: state.doc.length }],
): DecorationSet {
  if (marks.entries.length === 0) return Decoration.none;
  const decorations: Range<Decoration>[] = [];
  const tree = syntaxTree(state);
  for (const { from, to } of ranges) {
    tree.iterate({
      from,
      to,
      enter: (node) => {
        if (node.name !== 'Text') return;
        if (leftAlone(state, node.node)) return false;
        const text = state.sliceDoc(node.from, node.to);
        for (const match of findLexiconMatches(text, marks.entries)) {
          decorations.push(
            Decoration.mark({
              tagName: 'mark',
              attributes: pronouncedAttributes(marks, match),
            }).range(node.from + match.start, node.from + match.end),
          );
        }
        return false;
      },
    });
  }
  return Decoration.set(decorations, true);
}

/** The marks of the visible words, made again as the text, the view, the parse or the marks change. */
const pronouncedView = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(update: ViewUpdate) {
      if (
        update.docChanged ||
        update.viewportChanged ||
        update.startState.field(marksField) !== update.state.field(marksField) ||
        syntaxTree(update.startState) !== syntaxTree(update.state)
      ) {
        this.decorations = this.build(update.view);
      }
    }
    build(view: EditorView) {
      return ssmlPronouncedDecorations(
        view.state,
        view.state.field(marksField),
        view.visibleRanges,
      );
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** The SSML editor's extension: no marks until `setPronouncedMarks` gives some. */
export function pronouncedWords(): Extension {
  return [marksField, pronouncedView];
}
