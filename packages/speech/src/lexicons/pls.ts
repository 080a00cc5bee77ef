import {
  LEXICON_LIMITS,
  LEXICON_MESSAGES,
  type LexiconEntry,
  LexiconEntrySchema,
  PHONEME_ALPHABETS,
  type PhonemeAlphabet,
} from '@parla/contract';
import { SaxesParser, type SaxesTag } from 'saxes';
import { type SourcePosition, SpeechError } from '../errors.js';
import { escapeXml } from '../ssml/parser.js';

/**
 * W3C Pronunciation Lexicon Specification 1.0 (https://www.w3.org/TR/pronunciation-lexicon/),
 * the file Amazon Polly's `PutLexicon` and ElevenLabs' pronunciation dictionaries take: read
 * into entries with line:column on every mistake, and written back.
 *
 * Read with saxes, the strict XML parser the SSML stage uses (no DTD, no external entities).
 * A `<lexeme>` with several graphemes is one entry per grapheme; its pronunciation is the
 * first `<phoneme>` or `<alias>` marked `prefer="true"`, else the first (PLS §4.6: document
 * order is the order of preference). What PLS cannot say of an entry, Parla writes as
 * attributes of its own namespace, only where they differ from the default:
 * `parla:case-sensitive="true"`, `parla:whole-word="false"`, `parla:lang="…"`. A file without
 * them (Polly's, ElevenLabs') reads with the defaults: any case, whole words, the lexicon's
 * language.
 */

export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';
export const PARLA_PLS_NAMESPACE = 'urn:parla:pls';

/** A PLS file that cannot be read; the message says where and why. */
export class PlsError extends SpeechError {
  constructor(
    readonly at: SourcePosition,
    readonly reason: string,
  ) {
    super('bad_input', LEXICON_MESSAGES.badPls(at.line, at.column, reason));
    this.name = 'PlsError';
  }
}

export interface PlsLexicon {
  /** `xml:lang` of the `<lexicon>`. */
  language: string;
  entries: LexiconEntry[];
}

interface Lexeme {
  at: SourcePosition;
  graphemes: string[];
  pronunciations: { kind: 'alias' | 'phoneme'; text: string; alphabet: string; prefer: boolean }[];
  attributes: Record<string, string>;
}

/** Reads a PLS 1.0 file; a mistake is a `PlsError` (a `bad_input` SpeechError). */
export function parsePls(text: string): PlsLexicon {
  if (text.length > LEXICON_LIMITS.fileCharacters) {
    throw new SpeechError('bad_input', LEXICON_MESSAGES.fileTooLong(text.length));
  }
  const parser = new SaxesParser({ xmlns: true, position: true });
  let tagStart: SourcePosition = { line: 1, column: 1 };
  const here = (): SourcePosition => ({ line: parser.line, column: parser.column + 1 });
  const fail = (at: SourcePosition, reason: string): never => {
    throw new PlsError(at, reason);
  };
  let language: string | undefined;
  let alphabet = 'ipa';
  const entries: LexiconEntry[] = [];
  const stack: string[] = [];
  let lexeme: Lexeme | undefined;
  /** The text of the `<grapheme>`, `<phoneme>` or `<alias>` being read. */
  let reading: { text: string; attributes: Record<string, string> } | undefined;

  parser.on('doctype', () => fail(here(), 'a DOCTYPE is not allowed'));
  parser.on('opentagstart', (tag) => {
    const after = here();
    tagStart = { line: after.line, column: Math.max(1, after.column - tag.name.length - 2) };
  });
  parser.on('opentag', (tag: SaxesTag) => {
    const at = tagStart;
    const local = tag.local ?? tag.name;
    const attributes: Record<string, string> = {};
    for (const [name, attribute] of Object.entries(tag.attributes)) {
      if (typeof attribute === 'string') attributes[name] = attribute;
      else {
        attributes[name] = attribute.value;
        // Parla's own attributes by their namespace, whatever its prefix.
        if (attribute.uri) attributes[`{${attribute.uri}}${attribute.local}`] = attribute.value;
      }
    }
    const parent = stack.at(-1);
    stack.push(local);
    // Anything inside <meta>, <metadata> or <example> is not ours to read.
    if (parent === 'metadata' || parent === 'meta' || parent === 'example') return;
    if (parent === undefined) {
      if (local !== 'lexicon') fail(at, `the file must start with <lexicon>, not <${tag.name}>`);
      if (tag.uri !== '' && tag.uri !== PLS_NAMESPACE) {
        fail(at, `<lexicon> must be in the namespace ${PLS_NAMESPACE}`);
      }
      if (attributes.version !== undefined && attributes.version !== '1.0') {
        fail(at, `PLS version "${attributes.version}" is not 1.0`);
      }
      language = attributes['xml:lang'];
      if (language === undefined || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language)) {
        fail(at, '<lexicon> needs an xml:lang attribute with a BCP-47 language code (en-US)');
      }
      alphabet = attributes.alphabet ?? fail(at, '<lexicon> needs an alphabet attribute (ipa)');
      checkAlphabet(alphabet, at);
      return;
    }
    if (tag.uri !== PLS_NAMESPACE && tag.uri !== '') return;
    switch (local) {
      case 'meta':
      case 'metadata':
        return;
      case 'lexeme':
        if (parent !== 'lexicon') fail(at, '<lexeme> must be inside <lexicon>');
        lexeme = { at, graphemes: [], pronunciations: [], attributes };
        return;
      case 'grapheme':
      case 'phoneme':
      case 'alias':
        if (parent !== 'lexeme') fail(at, `<${local}> must be inside <lexeme>`);
        reading = { text: '', attributes };
        return;
      case 'example':
        if (parent !== 'lexeme') fail(at, '<example> must be inside <lexeme>');
        return;
      default:
        fail(at, `<${tag.name}> is not a PLS element`);
    }
  });
  const onText = (text: string) => {
    if (reading) reading.text += text;
    else if (
      text.trim() !== '' &&
      !['metadata', 'meta', 'example'].some((n) => stack.includes(n))
    ) {
      fail(here(), 'text outside <grapheme>, <phoneme>, <alias> or <example>');
    }
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    const local = tag.local ?? tag.name;
    stack.pop();
    if (stack.includes('metadata') || stack.includes('example')) return;
    if (reading && lexeme && (local === 'grapheme' || local === 'phoneme' || local === 'alias')) {
      const text = reading.text.replace(/\s+/g, ' ').trim();
      if (local === 'grapheme') lexeme.graphemes.push(text);
      else {
        const own = reading.attributes.alphabet ?? alphabet;
        if (local === 'phoneme') checkAlphabet(own, lexeme.at);
        lexeme.pronunciations.push({
          kind: local,
          text,
          alphabet: own,
          prefer: reading.attributes.prefer === 'true',
        });
      }
      reading = undefined;
    } else if (local === 'lexeme' && lexeme) {
      entries.push(...lexemeEntries(lexeme, fail));
      lexeme = undefined;
    }
  });
  parser.on('error', (error) => {
    const match = /^(\d+):(\d+): (.*)$/s.exec(error.message);
    throw match
      ? new PlsError(
          { line: Number(match[1]), column: Number(match[2]) },
          (match[3] ?? '').replace(/\.$/, ''),
        )
      : new PlsError({ line: 1, column: 1 }, error.message);
  });
  parser.write(text).close();
  if (language === undefined) fail({ line: 1, column: 1 }, 'the file has no <lexicon> element');
  return { language: language as string, entries };
}

function checkAlphabet(alphabet: string, at: SourcePosition): asserts alphabet is PhonemeAlphabet {
  if (!(PHONEME_ALPHABETS as readonly string[]).includes(alphabet)) {
    throw new PlsError(
      at,
      `the alphabet "${alphabet}" is not one of ${PHONEME_ALPHABETS.join(', ')}`,
    );
  }
}

function lexemeEntries(
  lexeme: Lexeme,
  fail: (at: SourcePosition, reason: string) => never,
): LexiconEntry[] {
  if (lexeme.graphemes.length === 0) fail(lexeme.at, '<lexeme> needs a <grapheme>');
  const chosen =
    lexeme.pronunciations.find((pronunciation) => pronunciation.prefer) ??
    lexeme.pronunciations[0] ??
    fail(lexeme.at, '<lexeme> needs a <phoneme> or an <alias>');
  const own = (name: string) => lexeme.attributes[`{${PARLA_PLS_NAMESPACE}}${name}`];
  return lexeme.graphemes.map((grapheme) => {
    const parsed = LexiconEntrySchema.safeParse({
      grapheme,
      case_sensitive: own('case-sensitive') === 'true',
      whole_word: own('whole-word') !== 'false',
      alias: chosen.kind === 'alias' ? chosen.text : null,
      phoneme: chosen.kind === 'phoneme' ? chosen.text : null,
      alphabet: chosen.kind === 'phoneme' ? chosen.alphabet : null,
      language: own('lang') ?? null,
    });
    if (!parsed.success) fail(lexeme.at, parsed.error.issues[0]?.message.replace(/\.$/, '') ?? '');
    return parsed.data as LexiconEntry;
  });
}

/** A lexicon as a PLS 1.0 file: one `<lexeme>` per entry, in order. */
export function toPls(lexicon: PlsLexicon): string {
  const own = (entry: LexiconEntry) =>
    [
      entry.case_sensitive ? ' parla:case-sensitive="true"' : '',
      entry.whole_word ? '' : ' parla:whole-word="false"',
      entry.language === null ? '' : ` parla:lang="${escapeXml(entry.language)}"`,
    ].join('');
  const usesOwn = lexicon.entries.some((entry) => own(entry) !== '');
  const lexemes = lexicon.entries.map((entry) => {
    const pronunciation =
      entry.alias !== null
        ? `<alias>${escapeXml(entry.alias)}</alias>`
        : `<phoneme${entry.alphabet === 'x-sampa' ? ' alphabet="x-sampa"' : ''}>${escapeXml(entry.phoneme ?? '')}</phoneme>`;
    return [
      `  <lexeme${own(entry)}>`,
      `    <grapheme>${escapeXml(entry.grapheme)}</grapheme>`,
      `    ${pronunciation}`,
      '  </lexeme>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}"${usesOwn ? ` xmlns:parla="${PARLA_PLS_NAMESPACE}"` : ''} alphabet="ipa" xml:lang="${escapeXml(lexicon.language)}">`,
    ...lexemes,
    '</lexicon>',
    '',
  ].join('\n');
}
