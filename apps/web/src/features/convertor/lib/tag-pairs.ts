/**
 * Which tag closes which (issue 18, item 4): in a line of the Text tab, an opening tag and the
 * closing tag of the same element that ends it are one unit — shown as one chip over the text
 * they wrap, and removed together. Self-closing tags (`<break />`) have no pair.
 */

/** The element an opening tag starts, or undefined for a closing or self-closing one. */
export function openedElement(raw: string): string | undefined {
  if (raw.startsWith('</') || raw.endsWith('/>')) return undefined;
  return /^<([\w:.-]+)/.exec(raw)?.[1];
}

/** The element a closing tag ends, or undefined. */
export function closedElement(raw: string): string | undefined {
  return /^<\/([\w:.-]+)/.exec(raw)?.[1];
}

/**
 * The pairs among a line's items, as indexes into `items` (each item's raw tag, or null for
 * text): `[open, close]`, innermost first. An unmatched tag belongs to no pair.
 */
export function tagPairs(items: readonly (string | null)[]): [number, number][] {
  const pairs: [number, number][] = [];
  const open: { element: string; index: number }[] = [];
  items.forEach((raw, index) => {
    if (raw === null) return;
    const opened = openedElement(raw);
    if (opened) {
      open.push({ element: opened, index });
      return;
    }
    const closed = closedElement(raw);
    if (!closed) return;
    // The nearest open tag of the same element; tags opened inside it and never closed are
    // left unpaired, as an XML reader would report them.
    const at = open.map((o) => o.element).lastIndexOf(closed);
    if (at < 0) return;
    pairs.push([(open[at] as { index: number }).index, index]);
    open.length = at;
  });
  return pairs;
}
