/** A download name such as parla-en-us-amy-2026-11-23-1045.mp3. */
export function downloadName(
  voiceName: string,
  languageCode: string,
  format: string,
  at: Date,
): string {
  const slug = (text: string) =>
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\w-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '');
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}`;
  return `${['parla', slug(languageCode), slug(voiceName)].filter(Boolean).join('-')}-${stamp}.${format}`;
}
