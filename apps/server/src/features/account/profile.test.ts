import { ProfileSchema } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { createTestApp, signedInUser, TEST_DATABASE_KIND } from '../../../test/test-app.js';
import { SIGNED_OUT_MESSAGE } from '../../plugins/auth.js';

const app = await createTestApp();

describe(`GET /api/account/profile (${TEST_DATABASE_KIND})`, () => {
  it('answers the signed-in user and plan in the Profile shape', async () => {
    const { user, authorization } = await signedInUser(app, { plan: 'PREMIUM' });
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(200);
    const profile = ProfileSchema.parse(response.json());
    expect(profile.user.email).toBe(user.email);
    expect(profile.user.role).toBe('USER');
    expect(profile.user.metadata.has_payment_method_added).toBe(false);
    expect(profile.plan.type).toBe('PREMIUM');
    expect(profile.plan.count_characters).toBe(user.count_characters);
  });

  it.each([
    ['no authorization header', undefined, 'Please log in to continue.'],
    ['a malformed header', 'Basic dXNlcjpwYXNz', 'Please log in to continue.'],
    ['a token that is not a JWT', 'Bearer not-a-token', SIGNED_OUT_MESSAGE],
    [
      'a token signed with another secret',
      'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
      SIGNED_OUT_MESSAGE,
    ],
  ])('refuses %s with 401', async (_label, authorization, message) => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: authorization ? { authorization } : {},
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message });
  });

  it('refuses an expired token', async () => {
    const { user } = await signedInUser(app);
    const longAgo = new Date(Date.now() - 365 * 24 * 60 * 60 * 1000);
    const { token } = await app.tokens.issue(user.id, user.token_version, longAgo);
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses the token of a deleted user', async () => {
    const { user, authorization } = await signedInUser(app);
    await app.db.deleteFrom('users').where('id', '=', user.id).execute();
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a token issued before the token version was raised (password change)', async () => {
    const { user, authorization } = await signedInUser(app);
    await app.db
      .updateTable('users')
      .set({ token_version: user.token_version + 1 })
      .where('id', '=', user.id)
      .execute();
    const response = await app.inject({
      method: 'GET',
      url: '/api/account/profile',
      headers: { authorization },
    });
    expect(response.statusCode).toBe(401);
  });
});
