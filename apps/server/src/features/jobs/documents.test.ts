import { createDeflate } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { EPUB_CHAPTERS, makeDocx, makeEpub, makePdf } from '../../../test/documents.js';
import { DOCUMENT_LIMITS, DocumentError, parseDocument } from './documents.js';
import {
  createReaderPool,
  READER_LIMITS,
  type ReaderPool,
  ReadersBusyError,
  ReadingRefused,
} from './reader-pool.js';

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

  it('reads in a child process as it reads here, refusals included', async () => {
    const readers = pool();
    const epub = await makeEpub();
    expect((await readers.read(epub, 'tales.epub')).parsed).toEqual(
      await parseDocument(epub, 'tales.epub'),
    );
    const refusal = await readers.read(text('Just some words.'), 'fake.pdf').catch((e) => e);
    expect(refusal).toBeInstanceOf(DocumentError);
    expect(refusal.message).toBe('fake.pdf is not a PDF document: it is a text file.');
  });
});

/** Pools made by a test, their processes stopped when the file ends. */
const pools: ReaderPool[] = [];
afterAll(() => {
  for (const readers of pools) readers.close();
});
function pool(limits: Partial<typeof READER_LIMITS> = {}): ReaderPool {
  const readers = createReaderPool({ ...READER_LIMITS, ...limits });
  pools.push(readers);
  return readers;
}

const MB = 1024 * 1024;

/** A DOCX whose document.xml is `size` bytes, nearly all spaces (a "ZIP bomb" when large). */
async function makeDocxBomb(size: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await makeDocx());
  const xml = (await zip.file('word/document.xml')?.async('string')) ?? '';
  const cut = xml.indexOf('<w:body>');
  zip.file(
    'word/document.xml',
    `${xml.slice(0, cut)}${' '.repeat(size - xml.length)}${xml.slice(cut)}`,
  );
  return zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: 1 },
  });
}

/** One bomb of 100 MB for the tests below, made once (a few seconds). */
let bomb: Promise<Uint8Array> | undefined;
const docxBomb = () => {
  bomb ??= makeDocxBomb(100 * MB);
  return bomb;
};

/** A ZIP whose directory says `name` unpacks to `size` bytes, whatever it really does. */
function lieAboutSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const bytes = Buffer.from(zip);
  const headers: [number, number][] = [
    [0x04034b50, 22], // local file header: uncompressed size at +22, name at +30
    [0x02014b50, 24], // central directory: uncompressed size at +24, name at +46
  ];
  for (const [signature, at] of headers) {
    const nameAt = signature === 0x04034b50 ? 30 : 46;
    for (
      let offset = bytes.indexOf(Buffer.from([0x50, 0x4b]));
      offset >= 0;
      offset = bytes.indexOf(Buffer.from([0x50, 0x4b]), offset + 1)
    ) {
      if (offset + nameAt + name.length > bytes.length || bytes.readUInt32LE(offset) !== signature)
        continue;
      if (bytes.toString('latin1', offset + nameAt, offset + nameAt + name.length) !== name)
        continue;
      bytes.writeUInt32LE(size, offset + at);
    }
  }
  return new Uint8Array(bytes);
}

describe('documents cannot take the machine (issue 28, item 3)', () => {
  it('refuses a ZIP bomb from its directory, before inflating it: the reader stays small', async () => {
    const bomb = await docxBomb();
    expect(bomb.length).toBeLessThan(2 * MB);
    // What a fresh reading process peaks at on a small document (Node's own memory).
    const small = await pool({ processes: 1 }).read(await makeDocx(), 'notes.docx');
    const refusal = await pool()
      .read(bomb, 'bomb.docx')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ReadingRefused);
    expect((refusal as ReadingRefused).message).toMatch(
      /^bomb\.docx holds word\/document\.xml, compressed [\d,]+ times; a document's files may be compressed 100 times at most\.$/,
    );
    // The reading process's own peak (its maxRSS) beside that: nothing near the 100 MB the
    // document would inflate to was ever held.
    expect((refusal as ReadingRefused).peakBytes - small.peakBytes).toBeLessThan(32 * MB);
  }, 60_000);

  it('stops a reader whose ZIP lies about its sizes at its memory limit, and reads on', async () => {
    const liar = lieAboutSize(await docxBomb(), 'word/document.xml', 1000);
    // The limit: what a fresh reading process peaks at on a small document, and 40 MB more,
    // far under the 100 MB the liar inflates to (a fixed 160 MB was within 10 MB of it on
    // Node 24, and JSZip's own size check sometimes came first).
    const small = await pool({ processes: 1 }).read(await makeDocx(), 'notes.docx');
    const limit = Math.ceil(small.peakBytes / MB) + 40;
    const readers = pool({ processes: 1, memoryMb: limit });
    const refusal = await readers.read(liar, 'liar.docx').catch((e) => e);
    expect(refusal).toBeInstanceOf(DocumentError);
    expect(refusal.message).toBe(
      `liar.docx needs more than ${limit} MB of memory to read; a document may use ${limit} MB.`,
    );
    // The process was replaced: the next document reads.
    expect((await readers.read(await makeDocx(), 'notes.docx')).parsed.title).toBe(
      'Notes for Speakers',
    );
  }, 60_000);

  it('stops a PDF whose page inflates to 1 GiB (a flate bomb) at its memory limit, and reads on', async () => {
    // One page whose content stream is 1 GiB of a text operator over and over, deflated to
    // about a megabyte: made here, never committed.
    const deflate = createDeflate({ level: 9 });
    const compressed: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
    const unit = Buffer.from('BT (boom) Tj ET\n'.repeat(65_536));
    for (let written = 0; written < 1024 * MB; written += unit.length) {
      if (!deflate.write(unit)) await new Promise((resolve) => deflate.once('drain', resolve));
    }
    await new Promise((resolve) => deflate.end(resolve));
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([200, 200]);
    const contents = pdf.context.register(
      pdf.context.stream(Buffer.concat(compressed), { Filter: 'FlateDecode' }),
    );
    page.node.set(PDFName.of('Contents'), contents);
    const bomb = await pdf.save();
    expect(bomb.length).toBeLessThan(8 * MB);

    // pdf.js alone takes a fresh process past 160 MB: the limit is twice what reading an
    // ordinary PDF peaks at, far under the bomb's gigabyte.
    const readers = pool({ processes: 1 });
    const ordinary = await readers.read(await makePdf(), 'handbook.pdf');
    const limit = Math.ceil((2 * ordinary.peakBytes) / MB);
    const bounded = pool({ processes: 1, memoryMb: limit });
    const refusal = await bounded.read(bomb, 'bomb.pdf').catch((e) => e);
    expect(refusal).toBeInstanceOf(DocumentError);
    expect(refusal.message).toBe(
      `bomb.pdf needs more than ${limit} MB of memory to read; a document may use ${limit} MB.`,
    );
    // The process was replaced: the next document reads.
    expect((await bounded.read(await makePdf(), 'handbook.pdf')).parsed.format).toBe('pdf');
  }, 120_000);

  it('caps pages, characters and nesting, naming the limit', async () => {
    const refused = (bytes: Uint8Array, name: string) =>
      parseDocument(bytes, name).then(
        () => 'read',
        (error: unknown) => (error instanceof DocumentError ? error.message : `crashed: ${error}`),
      );
    const many = await PDFDocument.create();
    for (let i = 0; i <= DOCUMENT_LIMITS.pdfPages; i++) many.addPage([10, 10]);
    expect(await refused(await many.save(), 'long.pdf')).toBe(
      'long.pdf has 3,001 pages; a document may have 3,000.',
    );
    expect(await refused(text('<div>'.repeat(1_000_000)), 'deep.html')).toBe(
      'deep.html nests its elements more than 256 deep; a document may nest them 256 deep.',
    );
    // 200 kB of nested quotes overflowed marked's stack (a 500).
    expect(await refused(text(`${'>'.repeat(200_000)} deep`), 'quotes.md')).toBe(
      'quotes.md nests block quotes or lists more than 32 deep; a document may nest them 32 deep.',
    );
    const list = Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i * 2)}- item ${i}`).join(
      '\n',
    );
    expect(await refused(text(list), 'list.md')).toMatch(/^list\.md nests block quotes or lists/);
    expect(await refused(text('word '.repeat(400_001)), 'huge.txt')).toBe(
      'huge.txt has 2,000,004 characters of text; a document may have 2,000,000.',
    );
  }, 60_000);

  it('reads a few documents at once and lets a few wait; more are refused at once', async () => {
    const readers = pool({ processes: 1, waiting: 1 });
    const epub = await makeEpub();
    const reads = [1, 2, 3].map((n) =>
      readers.read(epub, `tales-${n}.epub`).then(
        (reading) => reading.parsed.title,
        (error: unknown) => error,
      ),
    );
    const [first, second, third] = await Promise.all(reads);
    expect([first, second]).toEqual(['Tales of the Sea', 'Tales of the Sea']);
    expect(third).toBeInstanceOf(ReadersBusyError);
  });
});
