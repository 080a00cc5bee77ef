/**
 * The sample text a first visit starts with (issue 33, item 1) is replaced by what the
 * visitor types or pastes into it: given the sample and the document after the edit, the
 * text that the edit put in, or null when the edit only removed some of the sample.
 */
export function insertedIntoSample(sample: string, next: string): string | null {
  let prefix = 0;
  const shorter = Math.min(sample.length, next.length);
  while (prefix < shorter && sample[prefix] === next[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    sample[sample.length - 1 - suffix] === next[next.length - 1 - suffix]
  ) {
    suffix++;
  }
  const inserted = next.slice(prefix, next.length - suffix);
  return inserted === '' ? null : inserted;
}
