import { describe, expect, it } from 'vitest';
import { signJwt } from '../test/jwt';
import { LOGIN_PATH, requireAuth } from './require-auth';

const NOW = 1_800_000_000;

describe('requireAuth (SPEC §2 access guard)', () => {
  it('lets a visitor with an unexpired token cookie through', () => {
    expect(requireAuth(`token=${signJwt({ sub: 'u1', exp: NOW + 3600 })}`, NOW)).toBeNull();
  });

  it.each([
    ['no cookie', ''],
    ['an expired token', `token=${signJwt({ sub: 'u1', exp: NOW - 60 })}`],
    ['a token without exp', `token=${signJwt({ sub: 'u1' })}`],
    ['a malformed token', 'token=garbage'],
  ])('redirects to /auth/login with %s', (_case, cookie) => {
    const response = requireAuth(cookie, NOW);
    expect(response?.status).toBe(302);
    expect(response?.headers.get('Location')).toBe(LOGIN_PATH);
  });
});
