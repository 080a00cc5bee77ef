import { getSchema } from '@tiptap/core';
import Document from '@tiptap/extension-document';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { EditorState, TextSelection } from '@tiptap/pm/state';
import { describe, expect, it } from 'vitest';
import { pairedTag, tagPairPositions } from './tag-pairs-plugin';
import { fromEditorDoc, SsmlTag, toEditorJson, withTag } from './text-editor';

const schema = getSchema([Document, Paragraph, Text, SsmlTag]);

describe("the Text tab's ProseMirror document", () => {
  it.each([
    '',
    'plain text',
    'a\n\nb',
    'x &amp; <prosody rate="slow">slow &lt; fast</prosody>\n<break time="1s" />',
    '<speak><p>whole &quot;document&quot;</p></speak>',
    'stray & and <',
  ])('holds %j and gives it back unchanged', (ssml) => {
    const doc = schema.nodeFromJSON(toEditorJson(ssml));
    doc.check();
    expect(fromEditorDoc(doc)).toBe(ssml);
  });

  it('has one paragraph per line and one atom per tag', () => {
    const doc = schema.nodeFromJSON(toEditorJson('a<break time="1s" />b\nc'));
    expect(doc.childCount).toBe(2);
    expect(doc.child(0).childCount).toBe(3);
    expect(doc.child(0).child(1).type.name).toBe('ssmlTag');
  });
});

describe('tags as one unit in the Text tab', () => {
  const stateOf = (ssml: string, from: number, to: number) => {
    const doc = schema.nodeFromJSON(toEditorJson(ssml));
    return EditorState.create({ doc, selection: TextSelection.create(doc, from, to) });
  };

  it('wraps the selection and keeps it selected, so the next tag wraps the same words', () => {
    // "say hello there": positions 1..16 in the paragraph; "hello" is 5..10.
    let state = stateOf('say hello there', 5, 10);
    state = state.apply(withTag(state, '<prosody rate="fast">', '</prosody>'));
    expect(fromEditorDoc(state.doc)).toBe('say <prosody rate="fast">hello</prosody> there');
    expect(state.doc.textBetween(state.selection.from, state.selection.to)).toBe('hello');
    state = state.apply(withTag(state, '<emphasis level="strong">', '</emphasis>'));
    expect(fromEditorDoc(state.doc)).toBe(
      'say <prosody rate="fast"><emphasis level="strong">hello</emphasis></prosody> there',
    );
    expect(state.doc.textBetween(state.selection.from, state.selection.to)).toBe('hello');
  });

  it('pairs each chip with its closing chip and finds the other half', () => {
    const doc = schema.nodeFromJSON(
      toEditorJson(
        'a <prosody rate="fast">b <break time="1s" />c</prosody>\n<emphasis>d</emphasis>',
      ),
    );
    const pairs = tagPairPositions(doc);
    expect(pairs).toHaveLength(2);
    for (const { open, close } of pairs) {
      expect(pairedTag(doc, open)).toBe(close);
      expect(pairedTag(doc, close)).toBe(open);
      expect(doc.nodeAt(open)?.attrs.raw).toMatch(/^<(prosody|emphasis)/);
      expect(doc.nodeAt(close)?.attrs.raw).toMatch(/^<\/(prosody|emphasis)>$/);
    }
    const breakAt = pairs[0] ? pairs[0].open + 3 : -1;
    expect(doc.nodeAt(breakAt)?.attrs.raw).toBe('<break time="1s" />');
    expect(pairedTag(doc, breakAt)).toBeUndefined();
  });
});
