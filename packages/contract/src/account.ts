import * as z from 'zod/mini';
import { DELETE_CONFIRM_WORD, ENGINES, PLAN_PERIODS, PLAN_TYPES, ROLES } from './constants.js';
import {
  bothFilled,
  ConfirmNewPasswordSchema,
  EmailSchema,
  hasText,
  NameSchema,
  NewPasswordSchema,
  noNul,
  OldPasswordSchema,
  optionalText,
  PhoneSchema,
  requiredString,
} from './fields.js';
import { MESSAGES } from './messages.js';

// GET /account/profile (SPEC §3 Profile) -----------------------------------------------------

/** Every part of an address may be empty until billing settings are saved. */
export const AddressSchema = z.object({
  country: z.nullable(z.string()),
  state: z.nullable(z.string()),
  city: z.nullable(z.string()),
  line1: z.nullable(z.string()),
  line2: z.nullable(z.string()),
  postal_code: z.nullable(z.string()),
});
export type Address = z.infer<typeof AddressSchema>;

export const TaxSchema = z.object({ type: z.nullable(z.string()), code: z.nullable(z.string()) });
export type Tax = z.infer<typeof TaxSchema>;

/** The saved card as the payment provider describes it; no card number ever travels. */
export const CardSchema = z.object({
  /** The provider's brand name ('visa', 'Visa', …); see CARD_BRANDS for the display list. */
  brand: z.string(),
  last4: z.string().check(z.regex(/^\d{4}$/)),
  exp_month: z.number().check(z.int(), z.minimum(1), z.maximum(12)),
  exp_year: z.number().check(z.int()),
  name: z.nullable(z.string()),
});
export type Card = z.infer<typeof CardSchema>;

export const ProfileUserSchema = z.object({
  email: z.email(),
  name: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  role: z.enum(ROLES),
  address: AddressSchema,
  tax: TaxSchema,
  /** null until a payment method is saved. */
  card: z.nullable(CardSchema),
  metadata: z.object({ has_payment_method_added: z.boolean() }),
});
export type ProfileUser = z.infer<typeof ProfileUserSchema>;

const CharacterCount = z.number().check(z.int(), z.nonnegative());

export const ProfilePlanSchema = z.object({
  type: z.enum(PLAN_TYPES),
  period: z.enum(PLAN_PERIODS),
  /** Characters the user may still convert. */
  count_characters: CharacterCount,
  /** Most characters one conversion may hold. */
  count_characters_per_convert: CharacterCount,
  /** Characters added by purchases. */
  count_characters_added: CharacterCount,
  /** Characters the plan gives a period, as bought (FREE: the plan's now); My Plan's bar. */
  count_characters_allowance: CharacterCount,
  /** The conversion engines the plan was bought with (the convertor offers only these). */
  engines: z.array(z.enum(ENGINES)),
});
export type ProfilePlan = z.infer<typeof ProfilePlanSchema>;

export const ProfileSchema = z.object({ user: ProfileUserSchema, plan: ProfilePlanSchema });
export type Profile = z.infer<typeof ProfileSchema>;

// PUT /account/change_email ------------------------------------------------------------------

export const ChangeEmailInputSchema = z.object({ email: EmailSchema });
export type ChangeEmailInput = z.infer<typeof ChangeEmailInputSchema>;

// PUT /account/change_password ---------------------------------------------------------------

export const ChangePasswordInputSchema = z.object({
  old_password: OldPasswordSchema,
  new_password: NewPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInputSchema>;

export const ChangePasswordFormSchema = z
  .extend(ChangePasswordInputSchema, {
    confirmNewPassword: ConfirmNewPasswordSchema,
  })
  .check(
    z.refine((form) => form.confirmNewPassword === form.new_password, {
      error: MESSAGES.account.confirmNewPasswordMatch,
      path: ['confirmNewPassword'],
      when: bothFilled('new_password', 'confirmNewPassword'),
    }),
  );
export type ChangePasswordForm = z.infer<typeof ChangePasswordFormSchema>;

// GET /account/tax_ids -----------------------------------------------------------------------

export const TaxIdOptionSchema = z.object({
  /** Provider tax id type, e.g. 'eu_vat', 'gb_vat'. */
  type: z.string().check(z.minLength(1)),
  /** iso2 of the country the type applies to. */
  country: z.string().check(z.minLength(1)),
  /** Anchorless regular expression a code must match (compared without spaces, upper case). */
  pattern: z.string(),
  /** An example of the pattern, shown as the tax code placeholder (SPEC §2). */
  example: z.string(),
});
export type TaxIdOption = z.infer<typeof TaxIdOptionSchema>;
export const TaxIdListSchema = z.array(TaxIdOptionSchema);
export type TaxIdList = z.infer<typeof TaxIdListSchema>;

/** 'eu_vat' -> 'EU VAT' (SPEC §3). */
export function taxIdLabel(type: string): string {
  return type.replaceAll('_', ' ').toUpperCase();
}

/** The tax code placeholder: the chosen option's example, or 'VAT code' (SPEC §2). */
export function taxCodePlaceholder(option: Pick<TaxIdOption, 'example'> | undefined): string {
  return option?.example ? option.example : MESSAGES.billing.taxCodePlaceholder;
}

/** Tax type options of one country (SPEC §2: filtered to the selected country). */
export function taxIdOptionsFor(options: readonly TaxIdOption[], country: string | null) {
  if (!country) return [];
  const wanted = country.toUpperCase();
  return options.filter((option) => option.country.toUpperCase() === wanted);
}

function isObjectPayload(payload: { value: unknown }): boolean {
  return typeof payload.value === 'object' && payload.value !== null;
}

// PUT /account/invoice_info ------------------------------------------------------------------

const requiredBillingText = (message: string) => requiredString(message, { trim: true });

export const InvoiceAddressInputSchema = z.object({
  country: requiredBillingText(MESSAGES.billing.countryRequired),
  state: optionalText(),
  city: requiredBillingText(MESSAGES.billing.cityRequired),
  line1: requiredBillingText(MESSAGES.billing.line1Required),
  line2: optionalText(),
  postal_code: optionalText(),
});

/**
 * Tax details are both present (a company) or both null (SPEC §4 "Company checkbox"); a half
 * pair is refused with the missing field's message.
 */
export const InvoiceTaxInputSchema = z.object({ type: optionalText(), code: optionalText() }).check(
  z.superRefine((tax, ctx) => {
    if (tax.type !== null && tax.code === null) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: MESSAGES.billing.taxCodeRequired });
    }
    if (tax.code !== null && tax.type === null) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: MESSAGES.billing.taxTypeRequired });
    }
  }),
);

export const InvoiceInfoInputSchema = z.object({
  name: NameSchema,
  phone: PhoneSchema,
  address: InvoiceAddressInputSchema,
  tax: InvoiceTaxInputSchema,
});
/** What the server receives after parsing (optional fields are null, never ''). */
export type InvoiceInfoInput = z.output<typeof InvoiceInfoInputSchema>;

/**
 * The billing settings form. `isCompany` is the "save company tax details" checkbox: when
 * checked, tax type and code are required; when unchecked they are not validated and null is
 * sent for both. The schema's output is the invoice-info payload itself, so the form's submit
 * handler can send what it receives.
 */
export const BillingFormSchema = z.pipe(
  z
    .object({
      name: NameSchema,
      phone: PhoneSchema,
      address: InvoiceAddressInputSchema,
      isCompany: z.boolean(),
      tax: z.object({ type: optionalText(), code: optionalText() }),
    })
    .check(
      z.refine((form) => !form.isCompany || Boolean(form.tax?.type), {
        error: MESSAGES.billing.taxTypeRequired,
        path: ['tax', 'type'],
        when: isObjectPayload,
      }),
      z.refine((form) => !form.isCompany || Boolean(form.tax?.code), {
        error: MESSAGES.billing.taxCodeRequired,
        path: ['tax', 'code'],
        when: isObjectPayload,
      }),
    ),
  z.transform(
    (form): InvoiceInfoInput => ({
      name: form.name,
      phone: form.phone,
      address: form.address,
      tax: form.isCompany ? form.tax : { type: null, code: null },
    }),
  ),
);
/** The form's field values. */
export type BillingFormValues = z.input<typeof BillingFormSchema>;

/** Initial values of the billing form from the profile (SPEC §4: company iff both tax parts). */
export function billingFormDefaults(user: ProfileUser): BillingFormValues {
  return {
    name: user.name ?? '',
    phone: user.phone ?? '',
    address: {
      country: user.address.country ?? '',
      state: user.address.state ?? '',
      city: user.address.city ?? '',
      line1: user.address.line1 ?? '',
      line2: user.address.line2 ?? '',
      postal_code: user.address.postal_code ?? '',
    },
    isCompany: Boolean(user.tax.type && user.tax.code),
    tax: { type: user.tax.type ?? '', code: user.tax.code ?? '' },
  };
}

/** SPEC §5 (checkout): billing settings count as filled when these are. */
export function hasBillingDetails(user: ProfileUser): boolean {
  return Boolean(
    user.name && user.phone && user.address.country && user.address.city && user.address.line1,
  );
}

// DELETE /account/delete ---------------------------------------------------------------------

export const DeleteAccountFormSchema = z.object({
  confirm: requiredString(MESSAGES.account.deleteConfirmRequired).check(
    z.refine((value) => value === DELETE_CONFIRM_WORD, {
      error: MESSAGES.account.deleteConfirmMatch,
      when: hasText,
    }),
  ),
});
export type DeleteAccountForm = z.infer<typeof DeleteAccountFormSchema>;

// API keys (issue 16): /account/api_keys ------------------------------------------------------

/** Most keys one user may hold at once. */
export const MAX_API_KEYS = 20;

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, to recognise it (the key itself is shown only once). */
  prefix: z.string(),
  created_date: z.string(),
  /** When the key last signed a request in; null if never. */
  last_used_date: z.nullable(z.string()),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeysSchema = z.array(ApiKeySchema);

export const CreateApiKeyInputSchema = z
  .object({
    name: z
      .string({ error: 'name is required: a name to recognise the key by.' })
      .check(
        z.trim(),
        z.minLength(1, { error: 'name is required: a name to recognise the key by.' }),
        z.maxLength(60, { error: 'name must be at most 60 characters.' }),
        noNul,
      ),
  })
  .register(z.globalRegistry, { examples: [{ name: 'Home Assistant' }] });
export type CreateApiKeyInput = z.infer<typeof CreateApiKeyInputSchema>;

/** The answer of POST /account/api_keys: the only time `key` is ever shown. */
export const CreatedApiKeySchema = z.extend(z.omit(ApiKeySchema, { last_used_date: true }), {
  key: z.string(),
});
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyParamsSchema = z.object({
  id: z
    .string()
    .check(z.regex(/^[\w-]{1,64}$/, { error: 'id must be the id of one of your API keys.' })),
});
