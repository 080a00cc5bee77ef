import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import {
  BillingFormSchema,
  billingFormDefaults,
  ChangeEmailInputSchema,
  ChangePasswordFormSchema,
  ChangePasswordInputSchema,
  DeleteAccountFormSchema,
  hasBillingDetails,
  InvoiceInfoInputSchema,
  ProfileSchema,
  type ProfileUser,
  TaxIdListSchema,
  taxCodePlaceholder,
  taxIdLabel,
  taxIdOptionsFor,
} from './account.js';

const user: ProfileUser = {
  email: 'ann@example.com',
  name: 'Ann Smith',
  phone: '+44 20 7946 0958',
  role: 'USER',
  address: {
    country: 'GB',
    state: null,
    city: 'London',
    line1: '1 High Street',
    line2: null,
    postal_code: 'SW1A 1AA',
  },
  tax: { type: 'gb_vat', code: 'GB123456789' },
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, name: 'Ann Smith Jones' },
  metadata: { has_payment_method_added: true },
};

describe('ProfileSchema', () => {
  const plan = {
    type: 'FREE',
    period: 'none',
    count_characters: 1000,
    count_characters_per_convert: 500,
    count_characters_added: 0,
    count_characters_allowance: 20_000,
    engines: ['neural', 'standard'],
  };

  it('accepts a full profile and a fresh one with empty values', () => {
    expect(ProfileSchema.parse({ user, plan }).user.card?.last4).toBe('4242');
    const fresh = {
      ...user,
      name: null,
      phone: null,
      address: {
        country: null,
        state: null,
        city: null,
        line1: null,
        line2: null,
        postal_code: null,
      },
      tax: { type: null, code: null },
      card: null,
      metadata: { has_payment_method_added: false },
    };
    expect(ProfileSchema.safeParse({ user: fresh, plan }).success).toBe(true);
  });

  it('refuses unknown plan types, roles and periods', () => {
    expect(ProfileSchema.safeParse({ user, plan: { ...plan, type: 'GOLD' } }).success).toBe(false);
    expect(ProfileSchema.safeParse({ user: { ...user, role: 'ROOT' }, plan }).success).toBe(false);
    expect(ProfileSchema.safeParse({ user, plan: { ...plan, period: 'week' } }).success).toBe(
      false,
    );
    expect(ProfileSchema.safeParse({ user, plan: { ...plan, count_characters: -1 } }).success).toBe(
      false,
    );
  });
});

describe('change email and password', () => {
  it('validates the new email', () => {
    expect(messagesOf(ChangeEmailInputSchema, { email: '' })).toEqual({
      email: ['Email address is required.'],
    });
    expect(ChangeEmailInputSchema.parse({ email: 'new@example.com' })).toEqual({
      email: 'new@example.com',
    });
  });

  it('validates the password change call', () => {
    expect(messagesOf(ChangePasswordInputSchema, {})).toEqual({
      old_password: ['Old password is required.'],
      new_password: ['New password is required.'],
    });
    expect(
      messagesOf(ChangePasswordInputSchema, { old_password: '123', new_password: '456' }),
    ).toEqual({
      old_password: ['Old password must be at least 6 characters long.'],
      new_password: ['New password must be at least 6 characters long.'],
    });
  });

  it('the form checks the confirmation', () => {
    const good = {
      old_password: 'oldpass',
      new_password: 'newpass',
      confirmNewPassword: 'newpass',
    };
    expect(ChangePasswordFormSchema.safeParse(good).success).toBe(true);
    expect(messagesOf(ChangePasswordFormSchema, { ...good, confirmNewPassword: '' })).toEqual({
      confirmNewPassword: ['Confirm new password is required.'],
    });
    expect(
      messagesOf(ChangePasswordFormSchema, { ...good, confirmNewPassword: 'newpasS' }),
    ).toEqual({
      confirmNewPassword: ['Confirm new password must match.'],
    });
  });
});

describe('tax id options', () => {
  const options = TaxIdListSchema.parse([
    {
      type: 'eu_vat',
      country: 'FR',
      pattern: 'FR[A-HJ-NP-Z0-9]{2}\\d{9}',
      example: 'FRAB123456789',
    },
    { type: 'gb_vat', country: 'GB', pattern: 'GB\\d{9}', example: 'GB123456789' },
    { type: 'eu_oss_vat', country: 'FR', pattern: 'EU\\d{9}', example: '' },
  ]);

  it('labels a type with spaces, upper-cased', () => {
    expect(taxIdLabel('eu_vat')).toBe('EU VAT');
    expect(taxIdLabel('eu_oss_vat')).toBe('EU OSS VAT');
  });

  it('filters to the selected country', () => {
    expect(taxIdOptionsFor(options, 'fr').map((o) => o.type)).toEqual(['eu_vat', 'eu_oss_vat']);
    expect(taxIdOptionsFor(options, null)).toEqual([]);
  });

  it("falls back to 'VAT code' as placeholder", () => {
    expect(taxCodePlaceholder(options[0])).toBe('FRAB123456789');
    expect(taxCodePlaceholder(options[2])).toBe('VAT code');
    expect(taxCodePlaceholder(undefined)).toBe('VAT code');
  });
});

describe('InvoiceInfoInputSchema', () => {
  const good = {
    name: 'Ann Smith',
    phone: '0123456789',
    address: {
      country: 'GB',
      state: '',
      city: 'London',
      line1: '1 High St',
      line2: '  ',
      postal_code: null,
    },
    tax: { type: null, code: null },
  };

  it('sends empty optional values as null', () => {
    expect(InvoiceInfoInputSchema.parse(good).address).toEqual({
      country: 'GB',
      state: null,
      city: 'London',
      line1: '1 High St',
      line2: null,
      postal_code: null,
    });
  });

  it('gives the billing messages', () => {
    expect(
      messagesOf(InvoiceInfoInputSchema, {
        name: 'An',
        phone: '123',
        address: { country: '', city: ' ', line1: '' },
        tax: { type: null, code: null },
      }),
    ).toEqual({
      name: ['Name must be at least 3 characters long.'],
      phone: ['Phone number must be at least 10 characters long.'],
      'address.country': ['Country is required.'],
      'address.city': ['City is required.'],
      'address.line1': ['Address line 1 is required.'],
    });
    expect(messagesOf(InvoiceInfoInputSchema, { ...good, name: '', phone: '' })).toEqual({
      name: ['Name is required.'],
      phone: ['Phone number is required.'],
    });
  });

  it('refuses half a tax pair', () => {
    expect(
      messagesOf(InvoiceInfoInputSchema, { ...good, tax: { type: 'gb_vat', code: '' } }),
    ).toEqual({
      'tax.code': ['Tax code is required.'],
    });
    expect(
      messagesOf(InvoiceInfoInputSchema, { ...good, tax: { type: null, code: 'GB1' } }),
    ).toEqual({
      'tax.type': ['Tax Type is required.'],
    });
  });
});

describe('BillingFormSchema', () => {
  it('starts as a company when the profile has both tax type and code', () => {
    expect(billingFormDefaults(user).isCompany).toBe(true);
    expect(billingFormDefaults({ ...user, tax: { type: 'gb_vat', code: null } }).isCompany).toBe(
      false,
    );
    expect(billingFormDefaults(user).address.state).toBe('');
  });

  it('requires tax details only for a company', () => {
    const values = { ...billingFormDefaults(user), tax: { type: '', code: '' } };
    expect(messagesOf(BillingFormSchema, values)).toEqual({
      'tax.type': ['Tax Type is required.'],
      'tax.code': ['Tax code is required.'],
    });
    expect(BillingFormSchema.safeParse({ ...values, isCompany: false }).success).toBe(true);
  });

  it('outputs the invoice-info payload, with null tax when not a company', () => {
    const output = BillingFormSchema.parse({ ...billingFormDefaults(user), isCompany: false });
    expect(output).toEqual({
      name: 'Ann Smith',
      phone: '+44 20 7946 0958',
      address: {
        country: 'GB',
        state: null,
        city: 'London',
        line1: '1 High Street',
        line2: null,
        postal_code: 'SW1A 1AA',
      },
      tax: { type: null, code: null },
    });
    expect(InvoiceInfoInputSchema.parse(output)).toEqual(output);
    expect(BillingFormSchema.parse(billingFormDefaults(user)).tax).toEqual({
      type: 'gb_vat',
      code: 'GB123456789',
    });
  });

  it('knows when billing details are filled (checkout)', () => {
    expect(hasBillingDetails(user)).toBe(true);
    expect(hasBillingDetails({ ...user, address: { ...user.address, city: null } })).toBe(false);
  });
});

describe('DeleteAccountFormSchema', () => {
  it.each([
    ['', ["'DELETE' confirm is required."]],
    ['delete', ["Value must match with 'DELETE'."]],
    ['DELETE ', ["Value must match with 'DELETE'."]],
  ])('refuses %j', (confirm, messages) => {
    expect(messagesOf(DeleteAccountFormSchema, { confirm })).toEqual({ confirm: messages });
  });

  it('accepts DELETE', () => {
    expect(DeleteAccountFormSchema.safeParse({ confirm: 'DELETE' }).success).toBe(true);
  });
});

describe('BillingFormSchema with several mistakes', () => {
  it('reports the missing tax details together with the other fields', () => {
    const values = { ...billingFormDefaults(user), name: '', tax: { type: '', code: 'X1' } };
    expect(messagesOf(BillingFormSchema, values)).toEqual({
      name: ['Name is required.'],
      'tax.type': ['Tax Type is required.'],
    });
  });
});
