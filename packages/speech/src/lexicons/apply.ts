import {
  type CompiledLexiconEntry,
  compileLexicon,
  findLexiconMatches,
  type LexiconEntry,
  type LexiconMatch,
  lexiconLanguageApplies,
} from '@parla/contract';
import type { DocumentItem, Phonemes, SpeechDocument, TextItem } from '../document.js';
import { SsmlError } from '../errors.js';
import { parseSsml } from '../ssml/parser.js';
import { toEspeakPhonemes, toIpa } from '../ssml/phonemes.js';
import type { Warnings } from '../warnings.js';

/**
 * The lexicon stage (issue 32): between parsing and normalisation, every text the document
 * reads is looked up in the pronunciation lexicons that apply to it, and a matched grapheme is
 * said the lexicon's way: an alias replaces it (as SSML `<sub alias>` does), a phoneme string
 * makes it a text with phonemes (as `<phoneme>` does). What an engine does with either is the
 * engine's: an alias is text for every one; phonemes are read by those whose capabilities say
 * so and otherwise reported (`phoneme_not_spoken`) with the word read as written.
 *
 * Order (Polly's rule, extended to SSML 1.1's `<lookup>`): the lexicons of the `<lookup ref>`
 * elements around a text, innermost first; then the `<lexicon>`s the document declares; then
 * the request's. At each place in a text, the first lexicon's matching entry wins; a longer
 * match does not beat an earlier lexicon. Text already given a pronunciation (`<say-as>`,
 * `<phoneme>`) is left alone.
 */

/** A lexicon as the pipeline takes it (the server's stored lexicon, or a PLS file's). */
export interface SpeechLexicon {
  name: string;
  /** BCP-47: the language of the entries that give none. */
  language: string;
  entries: LexiconEntry[];
}

/**
 * The lexicon a `<lexicon uri>` names: the name itself, or an address ending in
 * `/lexicons/{name}` (such as the API's own `GET /api/lexicons/{name}`) or `.pls` after it.
 */
export function lexiconNameOfUri(uri: string): string {
  const path = uri.trim().replace(/[?#].*$/, '');
  const last = path.split(/[/:]/).at(-1) ?? '';
  return last.replace(/\.pls$/i, '');
}

/**
 * The names of the lexicons a text's SSML `<lexicon uri>` elements name, for the caller to load
 * (as `lexiconLibrary`) before it synthesises; none for plain text or SSML that does not parse
 * (synthesis reports that).
 */
export function ssmlLexiconNames(text: string): string[] {
  if (!/<lexicon\b/.test(text)) return [];
  try {
    return [...new Set((parseSsml(text).lexicons ?? []).map((it) => lexiconNameOfUri(it.uri)))];
  } catch {
    return [];
  }
}

/** A text item said the lexicons' way: one item, or several where phonemes cut it. */
function rewrite(item: TextItem, found: readonly LexiconMatch[], warnings: Warnings): TextItem[] {
  const out: TextItem[] = [];
  let pending = '';
  let at = 0;
  const flush = () => {
    if (pending !== '') out.push({ ...item, text: pending });
    pending = '';
  };
  for (const { start, end, compiled } of found) {
    pending += item.text.slice(at, start);
    at = end;
    const written = item.text.slice(start, end);
    const { entry } = compiled;
    if (entry.alias !== null) {
      pending += entry.alias;
      continue;
    }
    const alphabet = entry.alphabet ?? 'ipa';
    const ph = entry.phoneme ?? '';
    const espeak = toEspeakPhonemes(alphabet, ph);
    if (espeak === undefined) {
      warnings.add(
        'phoneme_not_spoken',
        `lexicon ${compiled.lexicon}: the ${alphabet} "${ph}" of "${entry.grapheme}" has symbols Parla cannot say; "${written}" is read`,
        item.source,
      );
      pending += written;
      continue;
    }
    const phonemes: Phonemes = {
      source: `lexicon ${compiled.lexicon}: alphabet="${alphabet}" ph="${ph}"`,
      espeak,
      ipa: toIpa(alphabet, ph),
    };
    flush();
    out.push({ ...item, text: written, phonemes });
  }
  pending += item.text.slice(at);
  flush();
  return out;
}

/**
 * The document with its texts said the lexicons' way. `lexicons` are the request's, in order;
 * `library` what a `<lexicon uri>` may name (a uri naming none of them is a `bad_input` error
 * at the element); `languageOf` the language a text is read in (its voice's).
 */
export async function applyLexicons(
  document: SpeechDocument,
  lexicons: readonly SpeechLexicon[],
  library: readonly SpeechLexicon[],
  languageOf: (item: TextItem) => Promise<string>,
  warnings: Warnings,
): Promise<SpeechDocument> {
  const declared = new Map<string, CompiledLexiconEntry[]>();
  for (const declaration of document.lexicons ?? []) {
    const name = lexiconNameOfUri(declaration.uri);
    const lexicon = library.find((candidate) => candidate.name === name);
    if (!lexicon) {
      throw new SsmlError(
        declaration.at,
        `<lexicon uri="${declaration.uri}"> names none of your lexicons`,
      );
    }
    declared.set(declaration.id, compileLexicon(lexicon));
  }
  if (declared.size === 0 && lexicons.every((lexicon) => lexicon.entries.length === 0)) {
    return document;
  }
  const everywhere = [...[...declared.values()].flat(), ...lexicons.flatMap(compileLexicon)];
  const items: DocumentItem[] = [];
  for (const item of document.items) {
    if (item.kind !== 'text' || item.sayAs || item.phonemes || item.spell) {
      items.push(item);
      continue;
    }
    const language = await languageOf(item);
    const entries = [
      ...(item.lookup ?? []).flatMap((id) => declared.get(id) ?? []),
      ...everywhere,
    ].filter((compiled) => lexiconLanguageApplies(compiled.language, language));
    const found = entries.length === 0 ? [] : findLexiconMatches(item.text, entries);
    items.push(...(found.length === 0 ? [item] : rewrite(item, found, warnings)));
  }
  return { ...document, items };
}
