import type { z } from 'zod';

/** Field path -> messages of a failed parse, or {} when it succeeds. For tests. */
export function messagesOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.join('.');
    byPath[key] = [...(byPath[key] ?? []), issue.message];
  }
  return byPath;
}
