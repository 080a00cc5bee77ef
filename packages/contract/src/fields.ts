import * as z from 'zod/mini';
import { MIN_LENGTHS } from './constants.js';
import { MESSAGES } from './messages.js';

/**
 * Reusable fields, defined once (CONVENTIONS §5). A missing value, null and the empty string
 * all give the field's "required" message and nothing else: the checks after it run only
 * when the field holds text (`when: hasText`; they are refines because zod's `.min` takes no
 * `when`). `abort: true` would do the same for the field but also stops the object's own
 * refines (password match, company tax details), so a form with one empty field could not
 * show its other mistakes.
 */

/**
 * No NUL character (U+0000) in a string the API takes: PostgreSQL's text cannot hold one (it
 * answered 500), and no name, text, key or id needs it. The message names the field.
 */
export const noNul = z.refine<string>((value) => !value.includes('\u0000'), {
  error: (issue) =>
    `${issue.path?.map(String).join('.') || 'The value'} must not contain a NUL character (\\u0000).`,
});

/** `when` of a check that only makes sense once a string field is non-empty. */
export function hasText(payload: { value: unknown }): boolean {
  return typeof payload.value === 'string' && payload.value !== '';
}

/** A string that must be present and non-empty (after trimming when `trim` is set). */
export function requiredString(required: string, options: { trim?: boolean } = {}) {
  return z
    .string({ error: required })
    .check(...(options.trim ? [z.trim()] : []), z.minLength(1, { error: required }), noNul);
}

/** A trimmed, required text with a minimum length (names, subjects, messages). */
export function requiredText(required: string, min: number, tooShort: string) {
  return requiredString(required, { trim: true }).check(
    z.refine((value) => value.length >= min, { error: tooShort, when: hasText }),
  );
}

/** A required password with the 6-character minimum; never trimmed. */
function password(required: string, tooShort: string) {
  return requiredString(required).check(
    z.refine((value) => value.length >= MIN_LENGTHS.password, { error: tooShort, when: hasText }),
  );
}

function email(required: string, invalid: string) {
  return z.email({
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === '' ? required : invalid,
  });
}

/**
 * An optional text: undefined, null, '' and blanks all become null (SPEC §5: "an empty value
 * is sent as null"), anything else is trimmed.
 */
export function optionalText() {
  return z.pipe(
    z.nullish(z.string().check(z.trim(), noNul)),
    z.transform((value) => (value ? value : null)),
  );
}

export const EmailSchema = email(MESSAGES.auth.emailRequired, MESSAGES.auth.emailInvalid);
/** The contact form words its email messages differently (SPEC §5). */
export const ContactEmailSchema = email(
  MESSAGES.contact.emailRequired,
  MESSAGES.contact.emailInvalid,
);

export const PasswordSchema = password(MESSAGES.auth.passwordRequired, MESSAGES.auth.passwordMin);
export const ConfirmPasswordSchema = password(
  MESSAGES.auth.confirmPasswordRequired,
  MESSAGES.auth.confirmPasswordMin,
);
export const OldPasswordSchema = password(
  MESSAGES.account.oldPasswordRequired,
  MESSAGES.account.oldPasswordMin,
);
export const NewPasswordSchema = password(
  MESSAGES.account.newPasswordRequired,
  MESSAGES.account.newPasswordMin,
);
/** The confirm-new-password field: required; the match is checked by the form's refine. */
export const ConfirmNewPasswordSchema = requiredString(MESSAGES.account.confirmNewPasswordRequired);

export const NameSchema = requiredText(
  MESSAGES.billing.nameRequired,
  MIN_LENGTHS.name,
  MESSAGES.billing.nameMin,
);
export const PhoneSchema = requiredText(
  MESSAGES.billing.phoneRequired,
  MIN_LENGTHS.phone,
  MESSAGES.billing.phoneMin,
);
export const NameOnCardSchema = requiredText(
  MESSAGES.checkout.nameOnCardRequired,
  MIN_LENGTHS.nameOnCard,
  MESSAGES.checkout.nameOnCardMin,
);

/** The terms agreement checkbox of the login and register forms. */
export const AgreementSchema = z.literal(true, { error: MESSAGES.auth.agreementRequired });

/**
 * A boolean query-string flag: accepts true/false (and the other spellings of
 * `z.stringbool`: 1/0, yes/no, on/off) as text, or a real boolean; absent means false.
 */
export const BooleanQuerySchema = z._default(z.union([z.boolean(), z.stringbool()]), false);

/** Timestamps travel as ISO 8601 strings with a zone ('2026-11-21T14:00:00.000Z'). */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/** A route key or id segment: non-empty, no slash. */
export const KeySchema = z.string().check(z.minLength(1), z.regex(/^[^/]+$/), noNul);

/** A URL slug: letters, digits, single dashes or underscores between them (`privacy-policy`). */
export const SlugSchema = z.string().check(z.regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/i));

/**
 * `when` for a "must match" refine: zod skips object refines while any field has an issue,
 * but a form shows the mismatch live, so run it as soon as both fields hold text; an empty
 * confirm field gets only its "required" message.
 */
export function bothFilled(first: string, second: string) {
  return (payload: { value: unknown }): boolean => {
    const value = payload.value;
    if (typeof value !== 'object' || value === null) return false;
    const record = value as Record<string, unknown>;
    const a = record[first];
    const b = record[second];
    return typeof a === 'string' && typeof b === 'string' && b !== '';
  };
}

// Fields of the public API's bodies and queries, whose messages name the field as it is sent --

/** A language code as the API takes it: BCP-47's language and subtags (en-US, zh). */
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** One of `values`; anything else is refused naming the field and the values. */
export function oneOf<const T extends readonly string[]>(field: string, values: T) {
  return z.enum(values, { error: `${field} must be one of ${values.join(', ')}.` });
}

/** A language code (`such as` gives the examples of its message). */
export function languageCode(field: string, suchAs = 'en-US') {
  return z.string().check(
    z.regex(LANGUAGE_CODE, {
      error: `${field} must be a BCP-47 language code, such as ${suchAs}.`,
    }),
  );
}

/** A voice id of the catalogue. */
export function voiceId(field: string) {
  return z
    .string()
    .check(
      z.minLength(1, { error: `${field} must be a voice id of GET /api/convertor/voices.` }),
      noNul,
    );
}
