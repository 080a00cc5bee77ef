/**
 * A job's text in parts (issue 19): each part is one rendering, charged and stored once, so a
 * job resumes where it stopped and its parts render on several workers at once. Parts end at
 * paragraph ends where they can, else at sentence ends, else at a space.
 */

/** At most this many characters a part: a few minutes of audio. */
export const PART_CHARACTERS = 4000;

/**
 * The first parts of a job are smaller, each twice the one before, up to PART_CHARACTERS
 * (docs/decisions/032-job-progress.md): the first is done within seconds on any voice, so
 * progress moves and the speed of rendering is measured from the start.
 */
export const FIRST_PARTS = [250, 500, 1000, 2000];

/** The most characters of part `index` of a job's first chapter (the others: PART_CHARACTERS). */
export const rampedLimit = (index: number) => FIRST_PARTS[index] ?? PART_CHARACTERS;

/**
 * Splits a chapter's text (paragraphs one blank line apart) into parts; `limit` is the most
 * characters of every part, or of each by its index.
 */
export function splitParts(
  text: string,
  limit: number | ((index: number) => number) = PART_CHARACTERS,
): string[] {
  const parts: string[] = [];
  const limitNow = () => (typeof limit === 'number' ? limit : limit(parts.length));
  let current = '';
  const push = (piece: string, separator: string) => {
    if (current && current.length + separator.length + piece.length > limitNow()) {
      parts.push(current);
      current = '';
    }
    current = current ? `${current}${separator}${piece}` : piece;
  };
  for (const paragraph of text.split(/\n{2,}/)) {
    if (paragraph.length <= limitNow()) {
      push(paragraph, '\n\n');
      continue;
    }
    // A paragraph longer than a part: by sentences, and a sentence longer still, by words.
    const sentences = paragraph.match(/[^.!?…]+(?:[.!?…]+["'”’)\]]*|$)\s*/g) ?? [paragraph];
    let first = true;
    for (const sentence of sentences.map((s) => s.trim()).filter(Boolean)) {
      const most = limitNow();
      const pieces = sentence.length <= most ? [sentence] : byWords(sentence, most);
      for (const piece of pieces) {
        push(piece, first ? '\n\n' : ' ');
        first = false;
      }
    }
  }
  if (current) parts.push(current);
  return parts;
}

function byWords(sentence: string, limit: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    // A "word" longer than a part (no spaces at all) is cut where it must be.
    for (let at = 0; at < word.length; at += limit) {
      const chunk = word.slice(at, at + limit);
      if (current && current.length + 1 + chunk.length > limit) {
        pieces.push(current);
        current = '';
      }
      current = current ? `${current} ${chunk}` : chunk;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}
