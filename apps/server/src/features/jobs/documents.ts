/**
 * Documents turned into chapters of plain text (issue 19): EPUB (chapters from its
 * navigation), PDF (its text layer, without running headers and page numbers; larger type
 * starts a chapter), DOCX (headings), Markdown, HTML and TXT. Each format is read by a
 * well-kept library (JSZip, pdf.js, mammoth, marked, htmlparser2); what a file is comes from
 * its bytes, and a name that claims another format is refused, as are encrypted files and
 * files without text.
 */
import { Parser } from 'htmlparser2';
import JSZip from 'jszip';
import { marked } from 'marked';
import yauzl from 'yauzl';

/** The largest document accepted. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

export const DOCUMENT_FORMATS = ['epub', 'pdf', 'docx', 'markdown', 'html', 'txt'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export interface Chapter {
  title: string;
  text: string;
}

export interface ParsedDocument {
  format: DocumentFormat;
  title: string;
  chapters: Chapter[];
}

/** A document we cannot read: the message says why, naming the file. */
export class DocumentError extends Error {}

const EXTENSIONS: Record<string, DocumentFormat> = {
  epub: 'epub',
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'txt',
  text: 'txt',
};

const FORMAT_NAMES: Record<DocumentFormat, string> = {
  epub: 'an EPUB book',
  pdf: 'a PDF document',
  docx: 'a Word (DOCX) document',
  markdown: 'a Markdown file',
  html: 'an HTML page',
  txt: 'a text file',
};

/**
 * What reading a document may take (docs/decisions/036): beyond these a document is refused
 * with a 422 that names the limit, before the work is done where it can be counted first.
 */
export const DOCUMENT_LIMITS = {
  /** Bytes the files of an EPUB or DOCX may unpack to, together (read from its directory). */
  unzippedBytes: 200 * 1024 * 1024,
  /** How many times a file inside may be compressed: text, 3 to 10; a bomb, thousands. */
  zipRatio: 100,
  /** Pages of a PDF. */
  pdfPages: 3_000,
  /** Characters of text (a BUSINESS job takes 1,000,000). */
  characters: 2_000_000,
  /** Elements of an HTML or XML page nested in one another. */
  depth: 256,
  /** Block quotes or lists of Markdown nested in one another. */
  markdownDepth: 32,
};

const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024).toLocaleString('en-US')} MB`;

/** Reads a document into chapters; throws DocumentError for what cannot be read. */
export async function parseDocument(bytes: Uint8Array, fileName: string): Promise<ParsedDocument> {
  const extension = fileName.includes('.') ? fileName.split('.').at(-1)?.toLowerCase() : '';
  const claimed = extension ? EXTENSIONS[extension] : undefined;
  if (extension && !claimed) {
    throw new DocumentError(
      `${fileName}: .${extension} files are not read; send EPUB, PDF, DOCX, Markdown, HTML or TXT.`,
    );
  }
  const found = await sniff(bytes, fileName);
  const binary = (f: DocumentFormat | undefined) => f === 'epub' || f === 'pdf' || f === 'docx';
  const format = found === 'text' ? textFormat(claimed, bytes) : found;
  if (claimed && (binary(claimed) || binary(format)) && claimed !== format) {
    throw new DocumentError(
      `${fileName} is not ${FORMAT_NAMES[claimed]}: it is ${FORMAT_NAMES[format]}.`,
    );
  }
  const base = clean(fileName.replace(/\.[^.]+$/, '')) || 'Document';
  const parsed = await READERS[format](bytes, fileName, base);
  const chapters = parsed.chapters
    .map((chapter) => ({ title: clean(chapter.title) || base, text: tidy(chapter.text) }))
    .filter((chapter) => chapter.text.length > 0);
  const characters = chapters.reduce((sum, chapter) => sum + chapter.text.length, 0);
  if (characters > DOCUMENT_LIMITS.characters) {
    throw new DocumentError(
      `${fileName} has ${characters.toLocaleString('en-US')} characters of text; a document may have ${DOCUMENT_LIMITS.characters.toLocaleString('en-US')}.`,
    );
  }
  if (chapters.length === 0) {
    throw new DocumentError(
      format === 'pdf'
        ? `${fileName} has no text to read (a scanned PDF has only pictures of its pages).`
        : `${fileName} has no text to read.`,
    );
  }
  return { format, title: clean(parsed.title) || base, chapters };
}

type Reader = (
  bytes: Uint8Array,
  fileName: string,
  base: string,
) => Promise<{ title: string; chapters: Chapter[] }>;

const READERS: Record<DocumentFormat, Reader> = {
  epub: readEpub,
  pdf: readPdf,
  docx: readDocx,
  markdown: async (bytes, name, base) =>
    htmlChapters(await markdownHtml(utf8(bytes), name), name, base),
  html: async (bytes, name, base) => htmlChapters(utf8(bytes), name, base),
  txt: async (bytes, _name, base) => textChapters(utf8(bytes), base),
};

/** What the bytes are: a PDF, a ZIP-based document, or text (anything else is refused). */
async function sniff(bytes: Uint8Array, fileName: string): Promise<DocumentFormat | 'text'> {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.length === 0) throw new DocumentError(`${fileName} is empty.`);
  if (head.toString('latin1', 0, 5) === '%PDF-') return 'pdf';
  if (head.length >= 4 && head.readUInt32BE(0) === 0xd0cf11e0) {
    throw new DocumentError(
      `${fileName} is an encrypted Office document or an old .doc file; save it as DOCX without a password.`,
    );
  }
  if (head.toString('latin1', 0, 4) === 'PK\x03\x04') {
    await checkZip(bytes, fileName);
    const zip = await openZip(bytes, fileName);
    if (zip.file('META-INF/container.xml')) return 'epub';
    if (zip.file('word/document.xml')) return 'docx';
    throw new DocumentError(`${fileName} is a ZIP archive, not an EPUB book or a DOCX document.`);
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new DocumentError(
      `${fileName} is not a document we read: send EPUB, PDF, DOCX, or Markdown, HTML or text in UTF-8.`,
    );
  }
  return 'text';
}

function textFormat(claimed: DocumentFormat | undefined, bytes: Uint8Array): DocumentFormat {
  if (claimed === 'markdown' || claimed === 'html' || claimed === 'txt') return claimed;
  const start = utf8(bytes.subarray(0, 512)).trimStart().toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? 'html' : 'txt';
}

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

/**
 * Refuses a ZIP whose files would unpack to too much (a "ZIP bomb"), from the sizes its central
 * directory declares, before anything is inflated. A directory that lies is caught by the
 * reading process's memory limit (reader-pool.ts).
 */
async function checkZip(bytes: Uint8Array, fileName: string): Promise<void> {
  const entries = await new Promise<yauzl.Entry[]>((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) return reject(error);
        const found: yauzl.Entry[] = [];
        zip.on('entry', (entry: yauzl.Entry) => {
          found.push(entry);
          zip.readEntry();
        });
        zip.on('end', () => resolve(found));
        zip.on('error', reject);
        zip.readEntry();
      },
    );
  }).catch(() => {
    throw new DocumentError(`${fileName} is a damaged ZIP archive.`);
  });
  let total = 0;
  for (const entry of entries) {
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize > 1024 * 1024 && ratio > DOCUMENT_LIMITS.zipRatio) {
      throw new DocumentError(
        `${fileName} holds ${String(entry.fileName)}, compressed ${Math.round(ratio).toLocaleString('en-US')} times; a document's files may be compressed ${DOCUMENT_LIMITS.zipRatio} times at most.`,
      );
    }
  }
  if (total > DOCUMENT_LIMITS.unzippedBytes) {
    throw new DocumentError(
      `${fileName} unpacks to ${megabytes(total)}; a document may unpack to ${megabytes(DOCUMENT_LIMITS.unzippedBytes)}.`,
    );
  }
}

async function openZip(bytes: Uint8Array, fileName: string): Promise<JSZip> {
  try {
    return await JSZip.loadAsync(bytes);
  } catch {
    throw new DocumentError(`${fileName} is a damaged ZIP archive.`);
  }
}

/** One line: spaces collapsed, NUL characters (which no text needs, nor PostgreSQL takes) out. */
const clean = (text: string) => text.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();

/** Paragraphs kept (one blank line between), spaces collapsed inside them. */
function tidy(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map(clean)
    .filter(Boolean)
    .join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// HTML (also Markdown, DOCX through mammoth, and EPUB's pages)

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'li',
  'ul',
  'ol',
  'br',
  'tr',
  'table',
  'blockquote',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dd',
  'dt',
  'figcaption',
  'hr',
  'body',
]);
const SKIPPED = new Set(['script', 'style', 'head', 'title', 'template', 'noscript', 'svg']);

interface HtmlText {
  title: string;
  /** Text in order, with headings marked by level. */
  pieces: { heading?: number; text: string }[];
}

/** Refuses a page nested deeper than DOCUMENT_LIMITS.depth (counted as it is parsed). */
function tooDeep(fileName: string): DocumentError {
  return new DocumentError(
    `${fileName} nests its elements more than ${DOCUMENT_LIMITS.depth} deep; a document may nest them ${DOCUMENT_LIMITS.depth} deep.`,
  );
}

/** The text of an HTML (or XHTML) page, its headings apart. */
function htmlText(html: string, fileName: string): HtmlText {
  const pieces: HtmlText['pieces'] = [];
  let title = '';
  let depth = 0;
  let skipping = 0;
  let inTitle = false;
  let heading: number | undefined;
  let current = '';
  const flush = () => {
    if (current.trim() || heading !== undefined) pieces.push({ heading, text: current });
    current = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (++depth > DOCUMENT_LIMITS.depth) throw tooDeep(fileName);
        if (name === 'title') inTitle = true;
        if (SKIPPED.has(name)) skipping++;
        const level = /^h([1-6])$/.exec(name)?.[1];
        if (level) {
          flush();
          heading = Number(level);
        } else if (BLOCKS.has(name)) current += '\n\n';
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipping === 0) current += text;
      },
      onclosetag(name) {
        depth--;
        if (name === 'title') inTitle = false;
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
        if (/^h[1-6]$/.test(name)) {
          flush();
          heading = undefined;
        } else if (BLOCKS.has(name)) current += '\n\n';
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return { title, pieces };
}

/** Chapters of a page: its top two heading levels start them. */
function htmlChapters(
  html: string,
  fileName: string,
  base: string,
): { title: string; chapters: Chapter[] } {
  const { title, pieces } = htmlText(html, fileName);
  const levels = [...new Set(pieces.flatMap((p) => (p.heading ? [p.heading] : [])))].sort();
  const splitting = new Set(levels.slice(0, 2));
  const chapters: Chapter[] = [];
  let chapter: Chapter | undefined;
  for (const piece of pieces) {
    if (piece.heading !== undefined && splitting.has(piece.heading)) {
      chapter = { title: clean(piece.text), text: '' };
      chapters.push(chapter);
    } else {
      if (!chapter) {
        chapter = { title: clean(title) || base, text: '' };
        chapters.push(chapter);
      }
      chapter.text += `${piece.text}\n\n`;
    }
  }
  const first = levels[0] !== undefined ? pieces.find((p) => p.heading === levels[0]) : undefined;
  return { title: clean(title) || (first ? clean(first.text) : base), chapters };
}

/**
 * Markdown as HTML, once its nesting is known to be within DOCUMENT_LIMITS.markdownDepth: marked
 * reads nested block quotes and lists by recursion, and 200 kB of `>` overflowed its stack.
 */
async function markdownHtml(markdown: string, fileName: string): Promise<string> {
  const limit = DOCUMENT_LIMITS.markdownDepth;
  const refusal = new DocumentError(
    `${fileName} nests block quotes or lists more than ${limit} deep; a document may nest them ${limit} deep.`,
  );
  for (const line of markdown.split('\n')) {
    const lead = /^[ \t>]*/.exec(line)?.[0] ?? '';
    const quotes = lead.split('>').length - 1;
    const indent = lead.replaceAll('>', '').replaceAll('\t', '    ').length;
    if (quotes > limit || indent > limit * 4) throw refusal;
  }
  try {
    return await marked.parse(markdown);
  } catch (error) {
    if (error instanceof RangeError) throw refusal;
    throw error;
  }
}

/** Plain text: a line such as "Chapter 3", "CHAPTER III. The Sea" or "Part Two" starts one. */
function textChapters(text: string, base: string): { title: string; chapters: Chapter[] } {
  const chapters: Chapter[] = [];
  let chapter: Chapter = { title: base, text: '' };
  chapters.push(chapter);
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (
      /^\s*(chapter|part|book|prologue|epilogue)\b.{0,80}$/i.test(line) &&
      line.trim().length < 90
    ) {
      chapter = { title: clean(line), text: '' };
      chapters.push(chapter);
    } else {
      chapter.text += `${line}\n`;
    }
  }
  return { title: base, chapters };
}

// ---------------------------------------------------------------------------------------------
// EPUB

/** An XML document's elements, flat, with attributes (OPF, NCX, container.xml, nav). */
function xmlElements(
  xml: string,
  fileName: string,
): { name: string; attributes: Record<string, string>; text: string }[] {
  const elements: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const open: { name: string; attributes: Record<string, string>; text: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element = { name: name.toLowerCase(), attributes, text: '' };
        elements.push(element);
        open.push(element);
        if (open.length > DOCUMENT_LIMITS.depth) throw tooDeep(fileName);
      },
      ontext(text) {
        for (const element of open) element.text += text;
      },
      onclosetag() {
        open.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return elements;
}

const localName = (name: string) => name.split(':').at(-1) ?? name;

function resolvePath(from: string, href: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of decodeURIComponent(href.split('#')[0] ?? '').split('/')) {
    if (part === '..') parts.pop();
    else if (part && part !== '.') parts.push(part);
  }
  return parts.join('/');
}

async function readEpub(bytes: Uint8Array, fileName: string, base: string) {
  const zip = await openZip(bytes, fileName);
  const read = async (path: string) => {
    const file = zip.file(path);
    if (!file) throw new DocumentError(`${fileName} is a damaged EPUB book: ${path} is missing.`);
    return file.async('string');
  };
  const encryption = zip.file('META-INF/encryption.xml');
  if (encryption && /EncryptedData/.test(await encryption.async('string'))) {
    // Fonts obfuscated by the IDPF algorithm are no obstacle; anything else is DRM.
    const xml = await encryption.async('string');
    const methods = [...xml.matchAll(/EncryptionMethod[^>]*Algorithm="([^"]+)"/g)].map((m) => m[1]);
    if (methods.some((method) => !/obfuscation/i.test(method ?? ''))) {
      throw new DocumentError(`${fileName} is encrypted (DRM); send a book without protection.`);
    }
  }
  const container = xmlElements(await read('META-INF/container.xml'), fileName);
  const opfPath = container.find((e) => localName(e.name) === 'rootfile')?.attributes['full-path'];
  if (!opfPath) throw new DocumentError(`${fileName} is a damaged EPUB book: it names no package.`);
  const opf = xmlElements(await read(opfPath), fileName);
  const title = clean(
    opf.find((e) => e.name === 'dc:title' || localName(e.name) === 'title')?.text ?? '',
  );
  const manifest = new Map<string, { href: string; type: string; properties: string }>();
  for (const element of opf.filter((e) => localName(e.name) === 'item')) {
    const { id, href, 'media-type': type = '', properties = '' } = element.attributes;
    if (id && href) manifest.set(id, { href: resolvePath(opfPath, href), type, properties });
  }
  const spineElement = opf.find((e) => localName(e.name) === 'spine');
  const spine = opf
    .filter((e) => localName(e.name) === 'itemref' && e.attributes.linear !== 'no')
    .flatMap((e) => {
      const item = manifest.get(e.attributes.idref ?? '');
      return item && /html/.test(item.type) ? [item.href] : [];
    });
  // The table of contents: EPUB 3's navigation document, else EPUB 2's NCX.
  const toc: { title: string; path: string }[] = [];
  const nav = [...manifest.values()].find((item) => item.properties.split(' ').includes('nav'));
  const ncx =
    manifest.get(spineElement?.attributes.toc ?? '') ??
    [...manifest.values()].find((item) => item.type === 'application/x-dtbncx+xml');
  if (nav) {
    const elements = xmlElements(await read(nav.href), fileName);
    let inToc = false;
    for (const element of elements) {
      if (localName(element.name) === 'nav') {
        inToc = (element.attributes['epub:type'] ?? element.attributes.type ?? '').includes('toc');
      } else if (inToc && localName(element.name) === 'a' && element.attributes.href) {
        toc.push({
          title: clean(element.text),
          path: resolvePath(nav.href, element.attributes.href),
        });
      }
    }
  } else if (ncx) {
    const elements = xmlElements(await read(ncx.href), fileName);
    let label = '';
    for (const element of elements) {
      if (localName(element.name) === 'navlabel') label = clean(element.text);
      if (localName(element.name) === 'content' && element.attributes.src) {
        toc.push({ title: label, path: resolvePath(ncx.href, element.attributes.src) });
      }
    }
  }
  // Each page of the spine belongs to the last chapter of the contents that starts at or before
  // it; pages before the first (a cover, a title page) are left out when there are contents.
  const starts = new Map<string, string>();
  for (const entry of toc) if (!starts.has(entry.path)) starts.set(entry.path, entry.title);
  const chapters: Chapter[] = [];
  let chapter: Chapter | undefined;
  for (const path of spine) {
    const page = htmlText(await read(path), fileName);
    const text = page.pieces.map((piece) => piece.text).join('\n\n');
    const start = starts.get(path);
    if (start !== undefined || starts.size === 0) {
      const heading = page.pieces.find((piece) => piece.heading !== undefined);
      chapter = {
        title: start || clean(heading?.text ?? '') || `Chapter ${chapters.length + 1}`,
        text: '',
      };
      chapters.push(chapter);
    }
    if (!chapter) continue;
    // The chapter's own heading is its title, not words to read twice.
    const body = page.pieces
      .filter(
        (piece, index) =>
          !(index === 0 && piece.heading !== undefined && clean(piece.text) === chapter?.title),
      )
      .map((piece) => piece.text)
      .join('\n\n');
    chapter.text += `${start !== undefined ? body : text}\n\n`;
  }
  return { title: title || base, chapters };
}

// ---------------------------------------------------------------------------------------------
// DOCX

async function readDocx(bytes: Uint8Array, fileName: string, base: string) {
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch (error) {
    throw new DocumentError(
      `${fileName} is a damaged DOCX document (${(error as Error).message}).`,
    );
  }
  const zip = await openZip(bytes, fileName);
  const core = await zip.file('docProps/core.xml')?.async('string');
  const title = core
    ? clean(xmlElements(core, fileName).find((e) => e.name === 'dc:title')?.text ?? '')
    : '';
  const chapters = htmlChapters(html, fileName, base);
  return { title: title || chapters.title, chapters: chapters.chapters };
}

// ---------------------------------------------------------------------------------------------
// PDF

interface PdfLine {
  text: string;
  size: number;
}

async function readPdf(bytes: Uint8Array, fileName: string, base: string) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({
    // pdf.js takes the buffer over: give it a copy.
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  let document: Awaited<typeof loading.promise>;
  try {
    document = await loading.promise;
  } catch (error) {
    if ((error as Error).name === 'PasswordException') {
      throw new DocumentError(`${fileName} is encrypted with a password; send it without one.`);
    }
    throw new DocumentError(`${fileName} is a damaged PDF document.`);
  }
  try {
    if (document.numPages > DOCUMENT_LIMITS.pdfPages) {
      throw new DocumentError(
        `${fileName} has ${document.numPages.toLocaleString('en-US')} pages; a document may have ${DOCUMENT_LIMITS.pdfPages.toLocaleString('en-US')}.`,
      );
    }
    const pages: PdfLine[][] = [];
    let characters = 0;
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const rows = new Map<number, { x: number; text: string; size: number }[]>();
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const [, , , scaleY = 0, x = 0, y = 0] = item.transform as number[];
        characters += item.str.length;
        if (characters > DOCUMENT_LIMITS.characters) {
          throw new DocumentError(
            `${fileName} has more than ${DOCUMENT_LIMITS.characters.toLocaleString('en-US')} characters of text, as many as a document may have.`,
          );
        }
        const key = Math.round(y / 2) * 2;
        const row = rows.get(key) ?? [];
        row.push({ x, text: item.str, size: Math.abs(scaleY) || item.height });
        rows.set(key, row);
      }
      pages.push(
        [...rows.entries()]
          .sort(([a], [b]) => b - a)
          .map(([, items]) => {
            items.sort((a, b) => a.x - b.x);
            return {
              text: clean(items.map((item) => item.text).join(' ')),
              size: Math.max(...items.map((item) => item.size)),
            };
          }),
      );
      page.cleanup();
    }
    const info = await document.getMetadata().catch(() => undefined);
    const metaTitle = clean(String((info?.info as { Title?: unknown } | undefined)?.Title ?? ''));
    return { title: metaTitle || base, chapters: pdfChapters(pages, base) };
  } finally {
    await loading.destroy();
  }
}

const PAGE_NUMBER = /^(page\s*)?\d{1,4}(\s*(of|\/)\s*\d{1,4})?$|^[-–]\s*\d{1,4}\s*[-–]$/i;

/**
 * Chapters of a PDF's lines: page numbers and running headers or footers (the same line, its
 * digits aside, at the top or the bottom of most pages) left out; a line in type clearly
 * larger than the body's starts a chapter.
 */
function pdfChapters(pages: PdfLine[][], base: string): Chapter[] {
  const edge = (lines: PdfLine[]) => [...lines.slice(0, 2), ...lines.slice(-2)];
  const seen = new Map<string, number>();
  for (const lines of pages) {
    for (const key of new Set(edge(lines).map((line) => line.text.replace(/\d+/g, '#')))) {
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const furniture = (line: PdfLine, lines: PdfLine[]) =>
    PAGE_NUMBER.test(line.text) ||
    (pages.length >= 2 &&
      edge(lines).includes(line) &&
      (seen.get(line.text.replace(/\d+/g, '#')) ?? 0) >= Math.max(2, pages.length / 2));
  const kept = pages.flatMap((lines) => lines.filter((line) => !furniture(line, lines)));
  // The body's type size: the size most characters are set in.
  const bySize = new Map<number, number>();
  for (const line of kept) {
    const size = Math.round(line.size);
    bySize.set(size, (bySize.get(size) ?? 0) + line.text.length);
  }
  const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const chapters: Chapter[] = [];
  let chapter: Chapter | undefined;
  for (const line of kept) {
    if (line.size >= body * 1.3 && line.text.length < 120) {
      if (chapter && !chapter.text.trim()) chapter.title += ` ${line.text}`;
      else {
        chapter = { title: line.text, text: '' };
        chapters.push(chapter);
      }
      continue;
    }
    if (!chapter) {
      chapter = { title: base, text: '' };
      chapters.push(chapter);
    }
    // A word cut at the end of a line joins its other half.
    chapter.text = /\w-$/.test(chapter.text)
      ? `${chapter.text.slice(0, -1)}${line.text}`
      : `${chapter.text} ${line.text}`;
    if (/[.!?:"”]$/.test(line.text)) chapter.text += '\n\n';
  }
  return chapters;
}
