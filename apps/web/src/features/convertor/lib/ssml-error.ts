/** The `line:column: reason` prefix of the engine's SSML errors (packages/speech SsmlError). */
export function errorPosition(
  message: string,
): { line: number; column: number; reason: string } | null {
  const match = /^(\d+):(\d+):\s*([\s\S]*)$/.exec(message);
  if (!match) return null;
  return { line: Number(match[1]), column: Number(match[2]), reason: match[3] ?? '' };
}

/** The offset in `text` of a 1-based line and column, clamped to the text. */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length - 1); i += 1)
    offset += (lines[i]?.length ?? 0) + 1;
  const current = lines[Math.min(line, lines.length) - 1] ?? '';
  return Math.min(text.length, offset + Math.min(Math.max(0, column - 1), current.length));
}
