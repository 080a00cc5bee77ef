import type { SpeechMark } from '@parla/contract';

/**
 * The word being heard at a time: the last word mark that started at or before it (marks in
 * time order, times in ms). -1 before the first word.
 */
export function wordAt(words: readonly SpeechMark[], seconds: number): number {
  const ms = seconds * 1000;
  let low = 0;
  let high = words.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((words[middle]?.time ?? 0) <= ms) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/** The word marks of a conversion, one per word of the text (an expansion is one word). */
export function wordMarks(marks: readonly SpeechMark[]): SpeechMark[] {
  const words: SpeechMark[] = [];
  for (const mark of marks) {
    if (mark.type !== 'word') continue;
    const last = words.at(-1);
    if (last && last.start === mark.start && last.end === mark.end) continue;
    words.push(mark);
  }
  return words;
}

export type ReadAlongPiece =
  | { kind: 'text'; text: string }
  | { kind: 'word'; index: number; text: string };

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** What is read of a stretch of the source: tags left out, entities decoded. */
function readable(source: string, markup: boolean): string {
  if (!markup) return source;
  return source
    .replace(/<!--[\s\S]*?-->|<[^<>]*>/g, (tag) => (/^<\/?(p|s|break)\b/.test(tag) ? ' ' : ''))
    .replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, body: string) => {
      if (/^#x/i.test(body)) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
      if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
      return ENTITIES[body] ?? whole;
    });
}

/**
 * The read-along text: the source as read (for SSML, without its tags), cut into the words
 * the marks name and the text between them.
 */
export function readAlongPieces(
  source: string,
  words: readonly SpeechMark[],
  markup: boolean,
): ReadAlongPiece[] {
  const pieces: ReadAlongPiece[] = [];
  let at = 0;
  words.forEach((word, index) => {
    if (word.start < at) return;
    const between = readable(source.slice(at, word.start), markup);
    if (between) pieces.push({ kind: 'text', text: between });
    pieces.push({
      kind: 'word',
      index,
      text: readable(source.slice(word.start, word.end), markup),
    });
    at = word.end;
  });
  const rest = readable(source.slice(at), markup);
  if (rest) pieces.push({ kind: 'text', text: rest });
  return pieces;
}
