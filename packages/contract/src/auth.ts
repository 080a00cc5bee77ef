import * as z from 'zod/mini';
import {
  AgreementSchema,
  bothFilled,
  ConfirmPasswordSchema,
  DateTimeSchema,
  EmailSchema,
  KeySchema,
  noNul,
  PasswordSchema,
} from './fields.js';
import { MESSAGES } from './messages.js';

/**
 * Auth calls of SPEC §7 and the web forms around them. `*InputSchema` is the body a call
 * sends; `*FormSchema` is what the web form validates (it adds the form-only fields, named in
 * camelCase: `confirmPassword`, `remember`, `agreement`) and is a superset of the input, so
 * the form's values can be sent after picking the input keys.
 */

// POST /auth/login ---------------------------------------------------------------------------

export const LoginInputSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type LoginInput = z.infer<typeof LoginInputSchema>;

/**
 * When the email address is not validated yet there is no session: the page shows the
 * validation notice instead (SPEC §2), so token and expire_date are null.
 */
export const LoginResponseSchema = z.discriminatedUnion('has_email_address_validated', [
  z.object({
    has_email_address_validated: z.literal(true),
    token: z.string().check(z.minLength(1), noNul),
    /** When the token expires; the token cookie lives until then. */
    expire_date: DateTimeSchema,
  }),
  z.object({
    has_email_address_validated: z.literal(false),
    token: z.null(),
    expire_date: z.null(),
  }),
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const LoginFormSchema = z.extend(LoginInputSchema, {
  /** 'Remember me!' (default on). */
  remember: z.boolean(),
  agreement: AgreementSchema,
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

// POST /auth/register ------------------------------------------------------------------------

export const RegisterInputSchema = z.object({ email: EmailSchema, password: PasswordSchema });
export type RegisterInput = z.infer<typeof RegisterInputSchema>;

export const RegisterFormSchema = z
  .extend(RegisterInputSchema, {
    confirmPassword: ConfirmPasswordSchema,
    remember: z.boolean(),
    agreement: AgreementSchema,
  })
  .check(
    z.refine((form) => form.confirmPassword === form.password, {
      error: MESSAGES.auth.confirmPasswordMatch,
      path: ['confirmPassword'],
      when: bothFilled('password', 'confirmPassword'),
    }),
  );
export type RegisterForm = z.infer<typeof RegisterFormSchema>;

// POST /auth/forgotten_password --------------------------------------------------------------

export const ForgottenPasswordInputSchema = z.object({ email: EmailSchema });
export type ForgottenPasswordInput = z.infer<typeof ForgottenPasswordInputSchema>;
export const ForgottenPasswordFormSchema = ForgottenPasswordInputSchema;
export type ForgottenPasswordForm = ForgottenPasswordInput;

// PUT /auth/reset_password/{key} -------------------------------------------------------------

export const ResetPasswordParamsSchema = z.object({ key: KeySchema });
export type ResetPasswordParams = z.infer<typeof ResetPasswordParamsSchema>;

export const ResetPasswordInputSchema = z.object({ password: PasswordSchema });
export type ResetPasswordInput = z.infer<typeof ResetPasswordInputSchema>;

export const ResetPasswordFormSchema = z
  .extend(ResetPasswordInputSchema, {
    confirmPassword: ConfirmPasswordSchema,
    /** 'Remember password!' (default on). */
    remember: z.boolean(),
  })
  .check(
    z.refine((form) => form.confirmPassword === form.password, {
      error: MESSAGES.auth.confirmPasswordMatch,
      path: ['confirmPassword'],
      when: bothFilled('password', 'confirmPassword'),
    }),
  );
export type ResetPasswordForm = z.infer<typeof ResetPasswordFormSchema>;

// GET /auth/validate_email_address/{key} -----------------------------------------------------

export const ValidateEmailParamsSchema = z.object({ key: KeySchema });
export type ValidateEmailParams = z.infer<typeof ValidateEmailParamsSchema>;

export const ValidateEmailResponseSchema = z.object({
  token: z.string().check(z.minLength(1), noNul),
  expire_date: DateTimeSchema,
});
export type ValidateEmailResponse = z.infer<typeof ValidateEmailResponseSchema>;

// Remembered credentials (SPEC §3 "Cookies") -------------------------------------------------

/**
 * remembered_email and remembered_password are stored base64-encoded (SPEC §3). Encoded
 * through UTF-8 so that any character survives (plain `btoa` throws outside Latin-1).
 */
export function encodeRemembered(value: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The stored value, or undefined when the cookie is not valid base64 of UTF-8 text. */
export function decodeRemembered(encoded: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
