import { z } from 'zod';

/** OpenAI's error answer (its API reference, "Error codes"). */
export const OpenAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});

export type OpenAiError = z.infer<typeof OpenAiErrorSchema>;

/** OpenAI's error shape; `type` as OpenAI gives it for such a status. */
export function openAiErrorBody(
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
): OpenAiError {
  const type =
    status === 401
      ? 'invalid_request_error'
      : status === 402
        ? 'insufficient_quota'
        : status === 429
          ? 'rate_limit_error'
          : status >= 500
            ? 'server_error'
            : 'invalid_request_error';
  return { error: { message, type, param, code } };
}
