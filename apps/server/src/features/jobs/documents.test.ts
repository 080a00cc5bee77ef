import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { EPUB_CHAPTERS, makeDocx, makeEpub, makePdf } from '../../../test/documents.js';
import { DocumentError, parseDocument, readDocument } from './documents.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('documents', () => {
  it('reads an EPUB by its navigation: three chapters, the cover left out, titles from the contents', async () => {
    const parsed = await parseDocument(await makeEpub(), 'tales.epub');
    expect(parsed.format).toBe('epub');
    expect(parsed.title).toBe('Tales of the Sea');
    expect(parsed.chapters).toEqual(EPUB_CHAPTERS.map(([title, body]) => ({ title, text: body })));
  });

  it('reads a PDF without its running header and page numbers; larger type starts a chapter', async () => {
    const parsed = await parseDocument(await makePdf(), 'handbook.pdf');
    expect(parsed.format).toBe('pdf');
    expect(parsed.title).toBe('The Parla Handbook');
    expect(parsed.chapters).toEqual([
      {
        title: 'Getting Started',
        text: 'Parla turns text into speech. Type a sentence and press Convert to hear it read aloud at once.',
      },
      {
        title: 'Saving Files',
        text: 'Paid plans keep every file for thirty days. Open File History to play or download them again.',
      },
    ]);
  });

  it('reads a DOCX with its headings as chapters', async () => {
    const parsed = await parseDocument(await makeDocx(), 'notes.docx');
    expect(parsed.format).toBe('docx');
    expect(parsed.title).toBe('Notes for Speakers');
    expect(parsed.chapters.map((c) => c.title)).toEqual(['Breathing', 'Pace', 'Pauses']);
    expect(parsed.chapters[2]?.text).toBe('A pause lets the listener catch up.');
  });

  it('reads Markdown, HTML and text', async () => {
    const markdown = await parseDocument(
      text(
        '# One\n\nFirst *part*.\n\n## Two\n\nSecond part,\nsame paragraph.\n\n### Detail\n\nStill two.',
      ),
      'notes.md',
    );
    expect(markdown.chapters).toEqual([
      { title: 'One', text: 'First part.' },
      { title: 'Two', text: 'Second part, same paragraph.\n\nDetail\n\nStill two.' },
    ]);
    const html = await parseDocument(
      text(
        '<!doctype html><html><head><title>A page</title><style>p{}</style></head><body><p>Intro &amp; more.</p><h2>Later</h2><p>Then.</p><script>x()</script></body></html>',
      ),
      'page.html',
    );
    expect(html.title).toBe('A page');
    expect(html.chapters).toEqual([
      { title: 'A page', text: 'Intro & more.' },
      { title: 'Later', text: 'Then.' },
    ]);
    const plain = await parseDocument(
      text('\uFEFFA preface.\n\nChapter 1\nIt began.\n\nCHAPTER II. The End\nIt ended.'),
      'book.txt',
    );
    expect(plain.chapters).toEqual([
      { title: 'book', text: 'A preface.' },
      { title: 'Chapter 1', text: 'It began.' },
      { title: 'CHAPTER II. The End', text: 'It ended.' },
    ]);
  });

  it('leaves NUL characters out of titles and text (PostgreSQL cannot store them)', async () => {
    const parsed = await parseDocument(
      text('# Ti\u0000tle\n\nSome\u0000 words.\n\n## Two\u0000\n\nMore.'),
      'nu\u0000l.md',
    );
    expect(parsed).toEqual({
      format: 'markdown',
      title: 'Title',
      chapters: [
        { title: 'Title', text: 'Some words.' },
        { title: 'Two', text: 'More.' },
      ],
    });
    const plain = await parseDocument(text('Just\u0000 this.'), 'a\u0000b.txt');
    expect(plain).toEqual({
      format: 'txt',
      title: 'ab',
      chapters: [{ title: 'ab', text: 'Just this.' }],
    });
  });

  it('refuses what a file is not, encrypted files and files without text, naming the file', async () => {
    const refused = (bytes: Uint8Array, name: string) =>
      parseDocument(bytes, name).then(
        () => 'read',
        (error: unknown) => (error instanceof DocumentError ? error.message : `crashed: ${error}`),
      );
    expect(await refused(text('Just some words.'), 'fake.pdf')).toBe(
      'fake.pdf is not a PDF document: it is a text file.',
    );
    expect(await refused(await makeDocx(), 'book.epub')).toBe(
      'book.epub is not an EPUB book: it is a Word (DOCX) document.',
    );
    const zip = new JSZip();
    zip.file('hello.txt', 'hi');
    expect(await refused(await zip.generateAsync({ type: 'uint8array' }), 'x.docx')).toBe(
      'x.docx is a ZIP archive, not an EPUB book or a DOCX document.',
    );
    expect(await refused(await makeEpub({ drm: true }), 'locked.epub')).toBe(
      'locked.epub is encrypted (DRM); send a book without protection.',
    );
    const ole = new Uint8Array(512);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await refused(ole, 'secret.docx')).toMatch(
      /^secret\.docx is an encrypted Office document/,
    );
    expect(await refused(new Uint8Array([0xff, 0xfe, 0x00, 0x81]), 'blob.txt')).toMatch(
      /^blob\.txt is not a document we read/,
    );
    expect(
      await refused(text('<html><body><script>x()</script></body></html>'), 'empty.html'),
    ).toBe('empty.html has no text to read.');
    const blank = await PDFDocument.create();
    blank.addPage();
    expect(await refused(await blank.save(), 'scan.pdf')).toBe(
      'scan.pdf has no text to read (a scanned PDF has only pictures of its pages).',
    );
    expect(await refused(text('%PDF-1.7 broken'), 'broken.pdf')).toBe(
      'broken.pdf is a damaged PDF document.',
    );
    expect(await refused(new Uint8Array(0), 'nothing')).toBe('nothing is empty.');
    expect(await refused(new Uint8Array([0x20]), 'blank.txt')).toBe(
      'blank.txt has no text to read.',
    );
    expect(await refused(text('x'), 'song.mp3')).toBe(
      'song.mp3: .mp3 files are not read; send EPUB, PDF, DOCX, Markdown, HTML or TXT.',
    );
  });

  it('reads in a worker thread as it reads here, refusals included', async () => {
    const epub = await makeEpub();
    expect(await readDocument(epub, 'tales.epub')).toEqual(await parseDocument(epub, 'tales.epub'));
    await expect(readDocument(text('Just some words.'), 'fake.pdf')).rejects.toEqual(
      new DocumentError('fake.pdf is not a PDF document: it is a text file.'),
    );
  });
});
