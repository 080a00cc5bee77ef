import { xml } from '@codemirror/lang-xml';
import { ensureSyntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { compileLexicon, LexiconEntrySchema } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import type { PronouncedMarks } from './pronounced-marks';
import classes from './spoken-word.module.css';
import {
  pronouncedWords,
  setPronouncedMarks,
  ssmlPronouncedDecorations,
} from './ssml-pronounced-words';

const marks: PronouncedMarks = {
  entries: compileLexicon({
    name: 'Names',
    language: 'en-US',
    entries: [
      LexiconEntrySchema.parse({ grapheme: 'Nguyen', alias: 'win' }),
      LexiconEntrySchema.parse({ grapheme: 'SQL', phoneme: 'ˈsiːkwəl', case_sensitive: true }),
      LexiconEntrySchema.parse({ grapheme: 'time', alias: 'thyme' }),
    ],
  }),
  describe: (compiled) => `${compiled.entry.grapheme} by ${compiled.lexicon}`,
};

/** The marked words of an SSML text, with their titles, once it is parsed whole. */
function marked(ssml: string): [string, string][] {
  const state = EditorState.create({ doc: ssml, extensions: [xml()] });
  ensureSyntaxTree(state, state.doc.length, 5_000);
  const found: [string, string][] = [];
  ssmlPronouncedDecorations(state, marks).between(0, state.doc.length, (from, to, value) => {
    found.push([state.sliceDoc(from, to), String(value.spec.attributes?.title)]);
  });
  return found;
}

describe("the words of the user's lexicons in the SSML tab (issue 32)", () => {
  it('marks the words of the text as the server matches them, never in tags or attributes', () => {
    expect(
      marked(
        '<speak>NGUYEN and nguyens.\n<break time="1s"/>SQL, sql and <emphasis>Nguyen</emphasis>' +
          '<prosody rate="slow" nguyen="Nguyen">time</prosody><!-- Nguyen --></speak>',
      ),
    ).toEqual([
      ['NGUYEN', 'Nguyen by Names'],
      ['SQL', 'SQL by Names'],
      ['Nguyen', 'Nguyen by Names'],
      ['time', 'time by Names'],
    ]);
  });

  it('leaves the words that <say-as>, <phoneme> and <sub> say their own way', () => {
    expect(
      marked(
        '<speak><say-as interpret-as="characters">SQL</say-as> <phoneme ph="x">Nguyen</phoneme>' +
          ' <sub alias="Nguyen">time</sub> <p><s>Nguyen</s></p></speak>',
      ),
    ).toEqual([['Nguyen', 'Nguyen by Names']]);
  });

  it('marks the words of a text without markup, and nothing without entries', () => {
    expect(marked('I met Nguyen.')).toEqual([['Nguyen', 'Nguyen by Names']]);
    const state = EditorState.create({ doc: '<speak>Nguyen</speak>', extensions: [xml()] });
    expect(ssmlPronouncedDecorations(state, { ...marks, entries: [] }).size).toBe(0);
  });

  it('gives the same <mark> as the Text tab, with its title, in the editor', () => {
    const view = new EditorView({
      parent: document.body,
      state: EditorState.create({
        doc: '<speak>I met <break/>Nguyen at <b>SQL</b>.</speak>',
        extensions: [xml(), pronouncedWords()],
      }),
    });
    try {
      expect(view.contentDOM.querySelectorAll('mark')).toHaveLength(0);
      view.dispatch({ effects: setPronouncedMarks.of(marks) });
      const shown = [...view.contentDOM.querySelectorAll('mark')];
      expect(shown.map((mark) => [mark.textContent, mark.title, mark.dataset.pronounced])).toEqual([
        ['Nguyen', 'Nguyen by Names', 'Names'],
        ['SQL', 'SQL by Names', 'Names'],
      ]);
      // The look of the Text tab's marks.
      expect(classes.pronounced).toBeTruthy();
      expect(shown[0]?.className).toBe(classes.pronounced);
      // Typed text is marked as it is typed; the marks go when the lexicons do.
      view.dispatch({ changes: { from: 7, insert: 'sql and Nguyen ' } });
      expect(view.contentDOM.querySelectorAll('mark')).toHaveLength(3);
      view.dispatch({ effects: setPronouncedMarks.of({ ...marks, entries: [] }) });
      expect(view.contentDOM.querySelectorAll('mark')).toHaveLength(0);
    } finally {
      view.destroy();
    }
  });
});
