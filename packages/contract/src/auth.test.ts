import { describe, expect, it } from 'vitest';
import { messagesOf } from '../test/test-helpers.js';
import {
  decodeRemembered,
  encodeRemembered,
  ForgottenPasswordInputSchema,
  LoginFormSchema,
  LoginInputSchema,
  LoginResponseSchema,
  RegisterFormSchema,
  RegisterInputSchema,
  ResetPasswordFormSchema,
  ResetPasswordInputSchema,
  ResetPasswordParamsSchema,
  ValidateEmailResponseSchema,
} from './auth.js';

describe('LoginInputSchema', () => {
  it('accepts an email and a password', () => {
    expect(LoginInputSchema.parse({ email: 'ann@example.com', password: 'secret' })).toEqual({
      email: 'ann@example.com',
      password: 'secret',
    });
  });

  it.each([
    [{}, { email: ['Email address is required.'], password: ['Password is required.'] }],
    [
      { email: '', password: '' },
      { email: ['Email address is required.'], password: ['Password is required.'] },
    ],
    [
      { email: null, password: null },
      { email: ['Email address is required.'], password: ['Password is required.'] },
    ],
    [
      { email: 'ann', password: '12345' },
      {
        email: ['Incorect email address.'],
        password: ['Password must be at least 6 characters long.'],
      },
    ],
    [{ email: 'ann@example', password: '123456' }, { email: ['Incorect email address.'] }],
  ])('refuses %j with one message per field', (input, expected) => {
    expect(messagesOf(LoginInputSchema, input)).toEqual(expected);
  });

  it('does not trim passwords', () => {
    expect(LoginInputSchema.parse({ email: 'a@b.co', password: ' 12345 ' }).password).toBe(
      ' 12345 ',
    );
  });
});

describe('LoginFormSchema', () => {
  const good = { email: 'ann@example.com', password: 'secret', remember: true, agreement: true };

  it('needs the terms agreement', () => {
    expect(LoginFormSchema.safeParse(good).success).toBe(true);
    expect(messagesOf(LoginFormSchema, { ...good, agreement: false })).toEqual({
      agreement: ['You must agree to the terms of services and privacy policy.'],
    });
  });
});

describe('LoginResponseSchema', () => {
  it('carries a token only for a validated address', () => {
    expect(
      LoginResponseSchema.parse({
        has_email_address_validated: true,
        token: 'jwt',
        expire_date: '2026-12-01T00:00:00.000Z',
      }).token,
    ).toBe('jwt');
    expect(
      LoginResponseSchema.safeParse({
        has_email_address_validated: false,
        token: null,
        expire_date: null,
      }).success,
    ).toBe(true);
    expect(
      LoginResponseSchema.safeParse({
        has_email_address_validated: true,
        token: null,
        expire_date: null,
      }).success,
    ).toBe(false);
    expect(
      LoginResponseSchema.safeParse({
        has_email_address_validated: true,
        token: 'jwt',
        expire_date: 'tomorrow',
      }).success,
    ).toBe(false);
  });
});

describe('RegisterFormSchema', () => {
  const good = {
    email: 'ann@example.com',
    password: 'secret',
    confirmPassword: 'secret',
    remember: true,
    agreement: true,
  };

  it('accepts matching passwords and the register call takes only email and password', () => {
    const form = RegisterFormSchema.parse(good);
    expect(RegisterInputSchema.parse(form)).toEqual({
      email: 'ann@example.com',
      password: 'secret',
    });
  });

  it('refuses a mismatch on the confirm field', () => {
    expect(messagesOf(RegisterFormSchema, { ...good, confirmPassword: 'secreT' })).toEqual({
      confirmPassword: ['Confirm password must match.'],
    });
  });

  it('shows the mismatch even while another field is invalid', () => {
    expect(
      messagesOf(RegisterFormSchema, { ...good, email: 'nope', confirmPassword: 'other1' }),
    ).toEqual({
      email: ['Incorect email address.'],
      confirmPassword: ['Confirm password must match.'],
    });
  });

  it('an empty confirm field gets only its required message', () => {
    expect(messagesOf(RegisterFormSchema, { ...good, confirmPassword: '' })).toEqual({
      confirmPassword: ['Confirm password is required.'],
    });
    expect(messagesOf(RegisterFormSchema, { ...good, confirmPassword: 'abc' })).toEqual({
      confirmPassword: [
        'Confirm password must be at least 6 characters long.',
        'Confirm password must match.',
      ],
    });
  });
});

describe('password reset and forgotten password', () => {
  it('validates the reset form and its call', () => {
    expect(ResetPasswordInputSchema.parse({ password: 'newpass' })).toEqual({
      password: 'newpass',
    });
    expect(
      messagesOf(ResetPasswordFormSchema, {
        password: 'newpass',
        confirmPassword: 'newpas',
        remember: true,
      }),
    ).toEqual({ confirmPassword: ['Confirm password must match.'] });
    expect(ResetPasswordParamsSchema.safeParse({ key: '' }).success).toBe(false);
    expect(ResetPasswordParamsSchema.parse({ key: 'abc123' })).toEqual({ key: 'abc123' });
  });

  it('validates the forgotten-password email', () => {
    expect(messagesOf(ForgottenPasswordInputSchema, { email: 'x@' })).toEqual({
      email: ['Incorect email address.'],
    });
  });

  it('validates the email-validation answer', () => {
    expect(
      ValidateEmailResponseSchema.safeParse({ token: 't', expire_date: '2026-12-01T00:00:00Z' })
        .success,
    ).toBe(true);
    expect(
      ValidateEmailResponseSchema.safeParse({ token: '', expire_date: '2026-12-01T00:00:00Z' })
        .success,
    ).toBe(false);
  });
});

describe('remembered credentials', () => {
  it('round-trips through base64, any character included', () => {
    expect(encodeRemembered('ann@example.com')).toBe('YW5uQGV4YW1wbGUuY29t');
    for (const value of ['ann@example.com', 'pässwörd€', '密码🙂', '']) {
      expect(decodeRemembered(encodeRemembered(value))).toBe(value);
    }
  });

  it('ignores a cookie that is not base64 of UTF-8', () => {
    expect(decodeRemembered('%%%')).toBeUndefined();
    expect(decodeRemembered(btoa('\xff\xfe'))).toBeUndefined();
  });
});
