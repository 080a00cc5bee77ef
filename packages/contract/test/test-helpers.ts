import * as z from 'zod/mini';

/** Field path -> messages of a failed parse, or {} when it succeeds. For tests. */
export function messagesOf(schema: z.core.$ZodType, value: unknown): Record<string, string[]> {
  const result = z.safeParse(schema, value);
  const byPath: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = issue.path.join('.');
    byPath[key] = [...(byPath[key] ?? []), issue.message];
  }
  return byPath;
}
