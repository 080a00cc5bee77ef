/**
 * The counts the site shows (voices, languages) come from the voice catalogue at run time,
 * never from the content: content writes `{{voices}}` and `{{languages}}`, and the server fills
 * them from GET /convertor/voices/summary's numbers before serving a page.
 */
export interface CatalogueCounts {
  voices: number;
  languages: number;
}

/** `{{voices}}` → "1,048", `{{languages}}` → "131" (en-US digit grouping). */
export function fillCatalogueCounts(text: string, counts: CatalogueCounts): string {
  return text
    .replaceAll('{{voices}}', counts.voices.toLocaleString('en-US'))
    .replaceAll('{{languages}}', counts.languages.toLocaleString('en-US'));
}
