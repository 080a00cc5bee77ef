import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/*
 * Documents made here, as their tools make them, for the tests of documents and jobs: an EPUB
 * with a cover and three chapters (JSZip, EPUB 3 navigation), a two-page PDF with a running
 * header and page numbers (pdf-lib), a DOCX with headings (docx). Nothing is read from disk.
 */

export const EPUB_CHAPTERS = [
  ['The Harbour', 'Boats came in at dawn. The fishermen sang as they worked.'],
  ['The Storm', 'By noon the sky had turned grey. Nobody went out again.'],
  ['The Return', 'A week later the sea was calm, and the boats went out once more.'],
] as const;

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;

export async function makeEpub(options: { drm?: boolean } = {}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
  );
  if (options.drm) {
    zip.file(
      'META-INF/encryption.xml',
      '<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>',
    );
  }
  const items = EPUB_CHAPTERS.map(
    (_, i) => `<item id="c${i}" href="text/c${i}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Tales of the Sea</dc:title></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="cover" href="text/cover.xhtml" media-type="application/xhtml+xml"/>${items.join('')}</manifest><spine><itemref idref="cover"/>${EPUB_CHAPTERS.map((_, i) => `<itemref idref="c${i}"/>`).join('')}</spine></package>`,
  );
  zip.file(
    'OEBPS/nav.xhtml',
    xhtml(
      'Contents',
      `<nav xmlns:epub="http://www.idpf.org/2007/ops" epub:type="toc"><ol>${EPUB_CHAPTERS.map(([title], i) => `<li><a href="text/c${i}.xhtml">${title}</a></li>`).join('')}</ol></nav>`,
    ),
  );
  zip.file('OEBPS/text/cover.xhtml', xhtml('Cover', '<p>Tales of the Sea, a cover.</p>'));
  EPUB_CHAPTERS.forEach(([title, text], i) => {
    zip.file(`OEBPS/text/c${i}.xhtml`, xhtml(title, `<h1>${title}</h1><p>${text}</p>`));
  });
  return zip.generateAsync({ type: 'uint8array' });
}

export async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('The Parla Handbook');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    [
      'Getting Started',
      [
        'Parla turns text into speech. Type a sentence and press',
        'Convert to hear it read aloud at once.',
      ],
    ],
    [
      'Saving Files',
      [
        'Paid plans keep every file for thirty days. Open File',
        'History to play or download them again.',
      ],
    ],
  ] as const;
  pages.forEach(([heading, lines], index) => {
    const page = pdf.addPage([595, 842]);
    page.drawText('The Parla Handbook', { x: 50, y: 800, size: 9, font });
    page.drawText(heading, { x: 50, y: 740, size: 20, font });
    lines.forEach((line, n) => {
      page.drawText(line, { x: 50, y: 700 - 16 * n, size: 11, font });
    });
    page.drawText(String(index + 1), { x: 290, y: 40, size: 9, font });
  });
  return pdf.save();
}

export async function makeDocx(): Promise<Uint8Array> {
  const doc = new Document({
    title: 'Notes for Speakers',
    sections: [
      {
        children: [
          new Paragraph({ text: 'Breathing', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Breathe in slowly before every sentence.'),
          new Paragraph({ text: 'Pace', heading: HeadingLevel.HEADING_1 }),
          new Paragraph('Speak at the speed of a calm conversation.'),
          new Paragraph({ text: 'Pauses', heading: HeadingLevel.HEADING_2 }),
          new Paragraph('A pause lets the listener catch up.'),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}
