import { getSchema } from '@tiptap/core';
import Document from '@tiptap/extension-document';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { describe, expect, it } from 'vitest';
import { fromEditorDoc, SsmlTag, toEditorJson } from './text-editor';

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
