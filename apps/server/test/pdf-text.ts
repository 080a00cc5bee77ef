/**
 * The text of a PDF as a reader gets it (pdf.js: a space where the glyphs leave a gap, a line's
 * end as a space), runs of whitespace as one space, composed (NFC: a font may print "ị" as
 * "i" and a dot below, the dot a glyph without text of its own, which pdf.js reads as a control
 * character: left out).
 */
export async function readPdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const document = await loading.promise;
  const parts: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    for (const item of content.items) {
      if ('str' in item) parts.push(item.hasEOL ? `${item.str} ` : item.str);
    }
  }
  await loading.destroy();
  return parts
    .join('')
    .replace(/[^\P{Cc}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .normalize('NFC');
}
