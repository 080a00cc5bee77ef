import { canInsertTag, countCharacters, type TagKind } from '@parla/contract';
import { textToSend } from './ssml-document';

/**
 * Character accounting of the editor (SPEC §5, §9). What is counted is `countCharacters` of
 * @parla/contract applied to exactly what the server receives, so the counter and the
 * server's accounting never disagree.
 */

export interface CharacterCounter {
  /** Characters the document holds. */
  used: number;
  /** Most characters one conversion may hold. */
  perConvert: number;
  /** What is left of the per-conversion limit: tag costs are checked against this. */
  remaining: number;
}

export function usedCharacters(ssml: string): number {
  return countCharacters(textToSend(ssml));
}

export function characterCounter(ssml: string, perConvert: number): CharacterCounter {
  const used = usedCharacters(ssml);
  return { used, perConvert, remaining: Math.max(0, perConvert - used) };
}

/** Share of the per-conversion limit left at which the counter warns (issue 18, item 4). */
export const LOW_REMAINING_SHARE = 0.1;

/**
 * How close the document is to the per-conversion limit: `out` when nothing is left, `low`
 * within the last tenth, `ok` otherwise (and while the limit is not known yet).
 */
export function remainingLevel(counter: CharacterCounter): 'ok' | 'low' | 'out' {
  if (!Number.isFinite(counter.perConvert)) return 'ok';
  if (counter.remaining === 0) return 'out';
  return counter.remaining <= counter.perConvert * LOW_REMAINING_SHARE ? 'low' : 'ok';
}

/** Code points of a text: what the editors cut and what the cut message counts. */
export function codePoints(text: string): number {
  return Array.from(text).length;
}

/** SPEC §5: every tag insertion needs its cost in remaining characters. */
export function tagFits(kind: TagKind, counter: CharacterCounter): boolean {
  return canInsertTag(kind, counter.remaining);
}

/** The first `count` code points of a text (never half of a surrogate pair). */
export function firstCodePoints(text: string, count: number): string {
  if (count <= 0) return '';
  let out = '';
  let taken = 0;
  for (const char of text) {
    if (taken === count) break;
    out += char;
    taken += 1;
  }
  return out;
}

/**
 * The longest start of `inserted` that keeps the document within `limit` once inserted, where
 * `measure` counts a document with a given insertion. Every character counts at least one, so
 * the cut starts at the room left and only shortens while escaping makes it longer.
 */
export function cutToFit(
  inserted: string,
  limit: number,
  measure: (candidate: string) => number,
): string {
  const room = limit - measure('');
  let candidate = firstCodePoints(inserted, room);
  while (candidate && measure(candidate) > limit) {
    candidate = Array.from(candidate).slice(0, -1).join('');
  }
  return candidate;
}

/** SPEC §5: an uploaded TXT file has its new lines and tabs removed (a run becomes one space,
 * so that words of two lines do not run together), and is cut to the per-convert limit. */
export function cleanUploadedText(text: string, limit: number): string {
  const flat = text.replace(/^\uFEFF/, '').replace(/[\r\n\t]+/g, ' ');
  return cutToFit(flat, limit, (candidate) =>
    usedCharacters(candidate.replaceAll('&', '&amp;').replaceAll('<', '&lt;')),
  );
}
