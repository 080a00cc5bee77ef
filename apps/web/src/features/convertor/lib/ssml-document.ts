/**
 * The one mapping between the two tabs of the editor (issue 4, item 6).
 *
 * The document IS the SSML fragment the SSML tab shows and the server receives (without a
 * `<speak>` wrapper; the engine wraps fragments and keeps positions, docs/ssml.md). The Text
 * tab shows the same document as lines of text and tag chips:
 *
 * - every markup token (`<prosody rate="slow">`, `</prosody>`, `<break time="1s" />`, a
 *   comment) becomes a chip that keeps its exact source (`raw`);
 * - `&amp;` and `&lt;` become the characters they stand for; any other entity, or a stray `&`
 *   or `<`, is kept as a chip so that it comes back byte for byte;
 * - a new line starts a new paragraph (SPEC §5: each new line is a 0.2 s pause).
 *
 * Text -> SSML escapes only `&` and `<` (`>` is legal in XML text). With those rules both
 * directions are exact inverses: `toSsml(fromSsml(s)) === s` for every string s, and
 * `fromSsml(toSsml(d))` equals d once adjacent text runs are merged, which the editor does.
 */

export type Inline = { type: 'text'; text: string } | { type: 'tag'; raw: string };
export type Line = Inline[];
export type SsmlDocument = Line[];

// A tag (or comment, or processing instruction) from `<` to the next `>`, or an entity.
const TOKEN = /<!--[\s\S]*?-->|<[^<>]*>|&[#\w]+;|[&<]/g;

function pushText(line: Line, text: string): void {
  if (!text) return;
  const last = line.at(-1);
  if (last?.type === 'text') last.text += text;
  else line.push({ type: 'text', text });
}

function parseLine(source: string): Line {
  const line: Line = [];
  let at = 0;
  for (const match of source.matchAll(TOKEN)) {
    pushText(line, source.slice(at, match.index));
    const token = match[0];
    if (token === '&amp;') pushText(line, '&');
    else if (token === '&lt;') pushText(line, '<');
    else line.push({ type: 'tag', raw: token });
    at = match.index + token.length;
  }
  pushText(line, source.slice(at));
  return line;
}

/** SSML -> lines of text and chips. A comment spanning lines stays one chip on its first line. */
export function fromSsml(ssml: string): SsmlDocument {
  // Split on new lines that are not inside a tag or comment, so a chip never spans lines.
  const lines: string[] = [];
  let current = '';
  let at = 0;
  for (const match of ssml.matchAll(/<!--[\s\S]*?-->|<[^<>]*>|\n/g)) {
    current += ssml.slice(at, match.index);
    if (match[0] === '\n') {
      lines.push(current);
      current = '';
    } else current += match[0];
    at = match.index + match[0].length;
  }
  current += ssml.slice(at);
  lines.push(current);
  return lines.map(parseLine);
}

export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}
/** The words of a document (or of a piece of it), its tags left out. */
export function wordsOf(ssml: string): string {
  return fromSsml(ssml)
    .map((line) => line.map((inline) => (inline.type === 'text' ? inline.text : '')).join(''))
    .join('\n');
}

/** Lines of text and chips -> SSML. */
export function toSsml(document: SsmlDocument): string {
  return document
    .map((line) =>
      line
        .map((inline) => (inline.type === 'text' ? escapeText(inline.text) : inline.raw))
        .join(''),
    )
    .join('\n');
}

/** True when the document has markup, i.e. the engine must read it as SSML. */
export function hasMarkup(ssml: string): boolean {
  return fromSsml(ssml).some((line) => line.some((inline) => inline.type === 'tag'));
}

/**
 * What is sent to the server, and therefore counted: the document itself when it has markup;
 * otherwise its plain text (the engine escapes plain text into `<speak>`, and would read an
 * escaped `&amp;` in a tagless text aloud as "amp").
 */
export function textToSend(ssml: string): string {
  if (hasMarkup(ssml)) return ssml;
  return fromSsml(ssml)
    .map((line) =>
      line.map((inline) => (inline.type === 'text' ? inline.text : inline.raw)).join(''),
    )
    .join('\n');
}
