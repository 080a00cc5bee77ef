import { getSchema } from '@tiptap/core';
import Document from '@tiptap/extension-document';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { describe, expect, it } from 'vitest';
import { textToSend } from '../lib/ssml-document';
import { wordRange } from './spoken-word-plugin';
import { SsmlTag, toEditorJson } from './text-editor';

const schema = getSchema([Document, Paragraph, Text, SsmlTag]);

/** The editor text a word of the sent text covers, found through wordRange. */
function highlighted(ssml: string, word: string, occurrence = 0): string | null {
  const doc = schema.nodeFromJSON(toEditorJson(ssml));
  const sent = textToSend(ssml);
  let start = -1;
  for (let i = 0; i <= occurrence; i++) start = sent.indexOf(word, start + 1);
  const markup = sent === ssml && /<[a-z]/.test(ssml);
  const range = wordRange(doc, markup, { start, end: start + word.length });
  return range && doc.textBetween(range.from, range.to, '\n', (node) => String(node.attrs.raw));
}

describe('the heard word in the Text tab', () => {
  it('maps offsets of plain text, across lines, to the editor', () => {
    expect(highlighted('Hello there\nGeneral Kenobi', 'Kenobi')).toBe('Kenobi');
    expect(highlighted('Hello there\nGeneral Kenobi', 'there')).toBe('there');
    // `&` is one character in the sent plain text and in the editor.
    expect(highlighted('Tom &amp; Jerry run', 'Jerry')).toBe('Jerry');
  });

  it('maps offsets of SSML (tags are one position, entities one character) to the editor', () => {
    const ssml = 'Tom &amp; <prosody rate="slow">Jerry</prosody> <break time="1s" />run\nfast';
    expect(highlighted(ssml, 'Jerry')).toBe('Jerry');
    expect(highlighted(ssml, 'run')).toBe('run');
    expect(highlighted(ssml, 'fast')).toBe('fast');
    expect(highlighted(ssml, '&amp;')).toBe('&');
  });

  it('answers null for offsets outside the document', () => {
    const doc = schema.nodeFromJSON(toEditorJson('short'));
    expect(wordRange(doc, false, { start: 10, end: 14 })).toBeNull();
  });
});
