import contentDisposition from 'content-disposition';

/** A title as a file name: letters, digits and a few signs; nothing a file system refuses. */
export function fileNameOf(title: string, fallback: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80) || fallback
  );
}

/**
 * The Content-Disposition of every download (RFC 6266): the name in UTF-8 as RFC 8187's
 * `filename*=UTF-8''…`, and an ASCII `filename` for older clients, accents dropped ("Café" →
 * "Cafe"); a title with no ASCII letter or digit ("Война и мир") falls back to `fallback`.
 * Node refuses a header with characters beyond Latin-1, so a title is never put in it as is.
 */
export function dispositionOf(
  type: 'attachment' | 'inline',
  title: string,
  extension: string,
  fallback: string,
): string {
  const name = `${fileNameOf(title, fallback)}.${extension}`;
  const ascii = fileNameOf(
    title
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^\x20-\x7e]+/g, ' '),
    '',
  );
  const asciiName = /[A-Za-z0-9]/.test(ascii)
    ? `${ascii}.${extension}`
    : `${fallback}.${extension}`;
  return contentDisposition(name, { type, fallback: asciiName });
}
