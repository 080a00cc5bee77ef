/**
 * The counts the site shows (voices, languages) come from the voice catalogue at run time,
 * never from the content: content writes `{{voices}}` and `{{languages}}`, and the server fills
 * them from GET /convertor/voices/summary's numbers before serving a page.
 */
export interface CatalogueCounts {
  voices: number;
  languages: number;
  /**
   * Natural (neural) voices installed or configured (issue 29): while there are none, the
   * site makes no claim of natural speech. Unknown: counted as none.
   */
  natural?: number;
}

/**
 * `{{#natural}}…{{/natural}}` is kept only while natural voices exist, `{{^natural}}…{{/natural}}`
 * only while none does (mustache's section and inverted section): content words its claims
 * both ways and the catalogue decides at run time.
 */
const NATURAL_SECTION = /\{\{([#^])natural\}\}([\s\S]*?)\{\{\/natural\}\}/g;

/**
 * `{{voices}}` → "1,048", `{{languages}}` → "131", `{{natural}}` → "48" (natural voices), and
 * the `natural` sections kept or dropped (above); numbers grouped as the text's language writes
 * numbers (`locale`: "1.048" in German, "1 048" in French), as the web app formats its own.
 */
export function fillCatalogueCounts(text: string, counts: CatalogueCounts, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale);
  const natural = counts.natural ?? 0;
  return text
    .replace(NATURAL_SECTION, (_section, kind: string, inner: string) =>
      (kind === '#') === natural > 0 ? inner : '',
    )
    .replaceAll('{{voices}}', format.format(counts.voices))
    .replaceAll('{{languages}}', format.format(counts.languages))
    .replaceAll('{{natural}}', format.format(natural));
}
