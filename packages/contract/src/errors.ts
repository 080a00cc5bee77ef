import * as z from 'zod/mini';

/**
 * The one error body of every API failure: a message a person can read, and for schema
 * failures the field messages (the same ones the web form shows).
 */
export const FieldErrorSchema = z.object({
  /** Dot-joined path of the field ('address.city'); '' for the whole body. */
  path: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const ErrorResponseSchema = z.object({
  message: z.string(),
  errors: z.optional(z.array(FieldErrorSchema)),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** The answer of calls whose body SPEC does not show (register, contact, delete, …). */
export const MessageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponseSchema>;

/**
 * The message a screen shows for a failed call: the server's message when the body has one
 * (SPEC §8 "the server's error message"), otherwise the screen's fallback.
 */
export function errorMessage(body: unknown, fallback: string): string {
  const parsed = ErrorResponseSchema.safeParse(body);
  return parsed.success && parsed.data.message.trim() !== '' ? parsed.data.message : fallback;
}

/** Field errors of a zod failure in the ErrorResponse shape. */
export function fieldErrors(error: z.core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
