import { compileLexicon, LexiconEntrySchema } from '@parla/contract';
import { getSchema } from '@tiptap/core';
import Document from '@tiptap/extension-document';
import Paragraph from '@tiptap/extension-paragraph';
import Text from '@tiptap/extension-text';
import { describe, expect, it } from 'vitest';
import { costOf, markupOf, pronunciationSsml } from '../lib/pronunciation-tags';
import { pronouncedDecorations } from './pronounced-words-plugin';
import { SsmlTag, toEditorJson } from './text-editor';

const schema = getSchema([Document, Paragraph, Text, SsmlTag]);

const entries = compileLexicon({
  name: 'Names',
  language: 'en-US',
  entries: [
    LexiconEntrySchema.parse({ grapheme: 'Nguyen', alias: 'win' }),
    LexiconEntrySchema.parse({ grapheme: 'SQL', phoneme: 'ˈsiːkwəl', case_sensitive: true }),
  ],
});

/** The marked words of a document, with their titles. */
function marked(ssml: string): [string, string][] {
  const doc = schema.nodeFromJSON(toEditorJson(ssml));
  const set = pronouncedDecorations(doc, {
    entries,
    describe: (compiled) => `${compiled.entry.grapheme} by ${compiled.lexicon}`,
  });
  return set
    .find()
    .map((decoration) => [
      doc.textBetween(decoration.from, decoration.to),
      String((decoration as unknown as { type: { attrs: { title: string } } }).type.attrs.title),
    ]);
}

describe("the words of the user's lexicons in the Text tab (issue 32)", () => {
  it('marks whole words as the server matches them, across lines and beside chips', () => {
    expect(marked('NGUYEN and nguyens.\nSQL, sql and <break time="1s" />Nguyen')).toEqual([
      ['NGUYEN', 'Nguyen by Names'],
      ['SQL', 'SQL by Names'],
      ['Nguyen', 'Nguyen by Names'],
    ]);
  });

  it('marks nothing without entries', () => {
    const doc = schema.nodeFromJSON(toEditorJson('Nguyen'));
    expect(pronouncedDecorations(doc, { entries: [], describe: () => '' }).find()).toEqual([]);
  });
});

describe('pronunciation markup', () => {
  it('escapes values into attributes and costs what it adds to the count', () => {
    expect(markupOf('sub', 'Tom & "Jerry"')).toEqual({
      open: '<sub alias="Tom &amp; &quot;Jerry&quot;">',
      close: '</sub>',
    });
    expect(costOf('sub')).toBe('<sub alias=""></sub>'.length);
    expect(costOf('phoneme', 'wɪn')).toBe('<phoneme alphabet="ipa" ph="wɪn"></phoneme>'.length);
    expect(costOf('lang', 'fr-FR')).toBe('<lang xml:lang="fr-FR"></lang>'.length);
    expect(pronunciationSsml('A<B', { kind: 'alias', alias: 'a b' })).toBe(
      '<speak><sub alias="a b">A&lt;B</sub></speak>',
    );
  });
});
