import { describe, expect, it } from 'vitest';
import { LoginInputSchema } from './auth.js';
import { ErrorResponseSchema, errorMessage, fieldErrors } from './errors.js';

describe('errors', () => {
  it('prefers the server message and falls back otherwise', () => {
    expect(errorMessage({ message: 'Wrong password.' }, 'Failed login!')).toBe('Wrong password.');
    expect(errorMessage({ message: '  ' }, 'Failed login!')).toBe('Failed login!');
    expect(errorMessage('<html>502</html>', 'Failed login!')).toBe('Failed login!');
    expect(errorMessage(undefined, 'Failed register!')).toBe('Failed register!');
  });

  it('turns a zod failure into field errors of the error body', () => {
    const result = LoginInputSchema.safeParse({ email: 'x', password: '' });
    if (result.success) throw new Error('expected a failure');
    const body = { message: 'Invalid request.', errors: fieldErrors(result.error) };
    expect(ErrorResponseSchema.parse(body).errors).toEqual([
      { path: 'email', message: 'Incorect email address.' },
      { path: 'password', message: 'Password is required.' },
    ]);
  });
});
