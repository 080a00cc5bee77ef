import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

/**
 * The invoice's fonts: Noto Sans, whose files (from @fontsource, one per script) together
 * cover Latin, Greek, Cyrillic, Vietnamese, Devanagari and Arabic, so a customer's name or
 * address in any of them prints as written (PDF's standard Helvetica knows only Latin-1, and
 * printed "Ø§Ù" for Arabic). A line is printed in runs, each in the first file that has its
 * characters; pdfkit embeds the glyphs used, not the files.
 */

export type Weight = 'regular' | 'bold';

const SCRIPTS = [
  ['noto-sans', 'latin'],
  ['noto-sans', 'latin-ext'],
  ['noto-sans', 'vietnamese'],
  ['noto-sans', 'greek'],
  ['noto-sans', 'greek-ext'],
  ['noto-sans', 'cyrillic'],
  ['noto-sans', 'cyrillic-ext'],
  ['noto-sans-arabic', 'arabic'],
  ['noto-sans', 'devanagari'],
] as const;

interface FontFile {
  /** The name pdfkit knows it by (registerFont). */
  name: string;
  bytes: Buffer;
  covers: (codePoint: number) => boolean;
}

const require = createRequire(import.meta.url);

function load(weight: Weight): FontFile[] {
  const number = weight === 'bold' ? 700 : 400;
  return SCRIPTS.map(([family, script]) => {
    const bytes = readFileSync(
      require.resolve(`@fontsource/${family}/files/${family}-${script}-${number}-normal.woff`),
    );
    const font = fontkit.create(bytes) as fontkit.Font;
    return {
      name: `${family}-${script}-${weight}`,
      bytes,
      covers: (codePoint: number) => font.hasGlyphForCodePoint(codePoint),
    };
  });
}

let files: Record<Weight, FontFile[]> | undefined;

/** Read once, on the first invoice. */
export function invoiceFonts(): Record<Weight, FontFile[]> {
  files ??= { regular: load('regular'), bold: load('bold') };
  return files;
}

/**
 * `text` cut into runs, each with the font file that prints it: the first file that has the
 * character (Latin's before the others) starts a run, which goes on while its file has the
 * characters; a character no file has (CJK, emoji) stays in the run it is in (printed as the
 * font's empty box).
 */
export function fontRuns(text: string, weight: Weight): Array<{ font: string; text: string }> {
  const fonts = invoiceFonts()[weight];
  const runs: Array<{ font: FontFile; text: string }> = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    const current = runs.at(-1);
    // The run goes on in its file while that file has the character (or no file has it).
    const preferred = fonts.find((font) => font.covers(codePoint));
    const stays = current && (preferred === undefined || current.font.covers(codePoint));
    if (current && stays) current.text += character;
    else runs.push({ font: preferred ?? (fonts[0] as FontFile), text: character });
  }
  return runs.map((run) => ({ font: run.font.name, text: run.text }));
}
