/**
 * The counts the site shows (voices, languages) come from the voice catalogue at run time,
 * never from the content: content writes `{{voices}}` and `{{languages}}`, and the server fills
 * them from GET /convertor/voices/summary's numbers before serving a page.
 */
export interface CatalogueCounts {
  voices: number;
  languages: number;
}

/**
 * `{{voices}}` → "1,048", `{{languages}}` → "131", grouped as the text's language writes
 * numbers (`locale`: "1.048" in German, "1 048" in French), as the web app formats its own.
 */
export function fillCatalogueCounts(text: string, counts: CatalogueCounts, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale);
  return text
    .replaceAll('{{voices}}', format.format(counts.voices))
    .replaceAll('{{languages}}', format.format(counts.languages));
}
