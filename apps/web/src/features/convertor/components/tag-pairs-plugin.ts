import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { tagPairs } from '../lib/tag-pairs';
import classes from './tag-chip.module.css';

/**
 * A tag and its closing tag as one unit in the Text tab (issue 18, item 4): the text between
 * them is tinted (a decoration: the document is untouched), and `pairedTag` finds the other
 * half of a chip so that removing one removes both.
 */

/** Each pair of the document as the positions of its opening and closing chips. */
export function tagPairPositions(doc: PmNode): { open: number; close: number }[] {
  const found: { open: number; close: number }[] = [];
  doc.forEach((paragraph, offset) => {
    const positions: number[] = [];
    const items: (string | null)[] = [];
    paragraph.forEach((child, childOffset) => {
      positions.push(offset + 1 + childOffset);
      items.push(child.type.name === 'ssmlTag' ? String(child.attrs.raw) : null);
    });
    for (const [open, close] of tagPairs(items)) {
      found.push({ open: positions[open] as number, close: positions[close] as number });
    }
  });
  return found;
}

/** The position of the chip paired with the chip at `pos`, if it has one. */
export function pairedTag(doc: PmNode, pos: number): number | undefined {
  for (const pair of tagPairPositions(doc)) {
    if (pair.open === pos) return pair.close;
    if (pair.close === pos) return pair.open;
  }
  return undefined;
}

function decorations(doc: PmNode): DecorationSet {
  return DecorationSet.create(
    doc,
    tagPairPositions(doc)
      .filter(({ open, close }) => close > open + 1)
      .map(({ open, close }) =>
        Decoration.inline(open + 1, close, { class: classes.wrapped ?? '' }),
      ),
  );
}

export const tagPairsPlugin = () =>
  new Plugin<DecorationSet>({
    key: new PluginKey('parlaTagPairs'),
    state: {
      init: (_config, state) => decorations(state.doc),
      apply: (tr, set) => (tr.docChanged ? decorations(tr.doc) : set),
    },
    props: {
      decorations(state) {
        return this.getState(state);
      },
    },
  });
