import { describe, expect, it } from 'vitest';
import { signJwt } from '../test/jwt';
import { decodeJwtPayload, hasValidTokenCookie, isTokenUnexpired } from './auth-token';

const NOW = 1_800_000_000;

describe('decodeJwtPayload', () => {
  it('reads the claims of a real JWT', () => {
    // jwt.io's example token (HS256, secret 'your-256-bit-secret').
    const token =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    expect(decodeJwtPayload(token)).toEqual({
      sub: '1234567890',
      name: 'John Doe',
      iat: 1516239022,
    });
  });

  it('reads base64url payloads with non-ASCII text', () => {
    const token = signJwt({ email: 'zoë@example.com', exp: NOW + 60 });
    expect(decodeJwtPayload(token)).toEqual({ email: 'zoë@example.com', exp: NOW + 60 });
  });

  it.each(['', 'abc', 'a.b', 'a.b.c.d', 'x.!!!.y', `x.${btoa('[1,2]')}.y`, `x.${btoa('42')}.y`])(
    'answers undefined for %j',
    (token) => {
      expect(decodeJwtPayload(token)).toBeUndefined();
    },
  );
});

describe('isTokenUnexpired (SPEC §2 access guard)', () => {
  it('accepts a token whose exp (seconds) is in the future', () => {
    expect(isTokenUnexpired(signJwt({ sub: 'u1', exp: NOW + 3600 }), NOW)).toBe(true);
  });

  it('refuses an expired token, and one expiring this very second', () => {
    expect(isTokenUnexpired(signJwt({ sub: 'u1', exp: NOW - 1 }), NOW)).toBe(false);
    expect(isTokenUnexpired(signJwt({ sub: 'u1', exp: NOW }), NOW)).toBe(false);
  });

  it('compares seconds, not milliseconds', () => {
    // An exp written in milliseconds by mistake would look valid for ages; in seconds it is
    // read as intended: NOW + 10 s is valid, NOW - 10 s is not.
    expect(isTokenUnexpired(signJwt({ exp: NOW + 10 }), NOW)).toBe(true);
    expect(isTokenUnexpired(signJwt({ exp: NOW - 10 }), NOW)).toBe(false);
  });

  it('refuses a token without exp, with a non-numeric exp, or no token at all', () => {
    expect(isTokenUnexpired(signJwt({ sub: 'u1' }), NOW)).toBe(false);
    expect(isTokenUnexpired(signJwt({ exp: String(NOW + 60) }), NOW)).toBe(false);
    expect(isTokenUnexpired(undefined, NOW)).toBe(false);
    expect(isTokenUnexpired('not-a-jwt', NOW)).toBe(false);
  });
});

describe('hasValidTokenCookie', () => {
  const valid = signJwt({ sub: 'u1', exp: NOW + 60 });

  it('finds the token cookie among others', () => {
    expect(hasValidTokenCookie(`theme=dark; token=${valid}; other=1`, NOW)).toBe(true);
  });

  it('ignores cookies whose name only contains "token"', () => {
    expect(hasValidTokenCookie(`xtoken=${valid}; token_old=${valid}`, NOW)).toBe(false);
  });

  it('refuses when there is no cookie or an expired one', () => {
    expect(hasValidTokenCookie('', NOW)).toBe(false);
    expect(hasValidTokenCookie(`token=${signJwt({ exp: NOW - 5 })}`, NOW)).toBe(false);
  });
});
