import type { SpeechMark } from '@parla/contract';
import { Extension } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import type { Editor } from '@tiptap/react';
import { useEffect } from 'react';
import { escapeText } from '../lib/ssml-document';
import classes from './spoken-word.module.css';

/**
 * The word being heard, highlighted in the Text tab (issue 14, item 3): a ProseMirror
 * decoration, so the document is untouched. The player's marks give offsets into the text
 * as sent (lib/ssml-document `textToSend`); they are mapped here to positions of the editor's
 * document (paragraphs of text and tag chips).
 */

const key = new PluginKey<DecorationSet>('parlaSpokenWord');

/** The editor position of each offset of the sent text, at the start of its character. */
export function sentOffsetPositions(doc: PmNode, markup: boolean): number[] {
  const positions: number[] = [];
  let line = 0;
  doc.forEach((paragraph, offset) => {
    // A new line between paragraphs is one character of the sent text.
    if (line > 0) positions.push(offset);
    line += 1;
    paragraph.forEach((child, childOffset) => {
      const at = offset + 1 + childOffset;
      if (child.isText) {
        [...(child.text ?? '')].forEach((ch, i) => {
          // An escaped `&` or `<` is several characters of SSML for one of text.
          const length = markup ? escapeText(ch).length : ch.length;
          for (let k = 0; k < length; k++) positions.push(at + i);
        });
      } else {
        for (let k = 0; k < String(child.attrs.raw).length; k++) positions.push(at);
      }
    });
  });
  return positions;
}

/** The editor range of a word of the sent text, or null when the offsets fall outside it. */
export function wordRange(
  doc: PmNode,
  markup: boolean,
  word: Pick<SpeechMark, 'start' | 'end'>,
): { from: number; to: number } | null {
  const positions = sentOffsetPositions(doc, markup);
  const from = positions[word.start];
  const last = positions[word.end - 1];
  if (from === undefined || last === undefined || word.end <= word.start) return null;
  return { from, to: last + 1 };
}

export const SpokenWord = Extension.create({
  name: 'parlaSpokenWord',
  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key,
        state: {
          init: () => DecorationSet.empty,
          apply(tr, set) {
            const next = tr.getMeta(key) as { from: number; to: number } | null | undefined;
            if (next === undefined) return set.map(tr.mapping, tr.doc);
            if (next === null) return DecorationSet.empty;
            return DecorationSet.create(tr.doc, [
              Decoration.inline(next.from, next.to, {
                class: classes.spoken ?? '',
                'data-spoken': 'true',
              }),
            ]);
          },
        },
        props: {
          decorations: (state) => key.getState(state),
        },
      }),
    ];
  },
});

/** A word of the sent text to show as heard, and whether that text was SSML. */
export interface SpokenRange {
  start: number;
  end: number;
  markup: boolean;
}

/** Shows `spoken` in the editor; null clears the highlight. */
export function useSpokenWordHighlight(editor: Editor | null, spoken: SpokenRange | null): void {
  const start = spoken?.start;
  const end = spoken?.end;
  const markup = spoken?.markup ?? false;
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const range =
      start === undefined || end === undefined
        ? null
        : wordRange(editor.state.doc, markup, { start, end });
    editor.view.dispatch(editor.state.tr.setMeta(key, range).setMeta('addToHistory', false));
  }, [editor, start, end, markup]);
}
