import type { Profile } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { downloadRight } from './download';

const profile = (role: 'USER' | 'ADMIN', type: 'FREE' | 'BASIC') =>
  ({ user: { role }, plan: { type } }) as unknown as Profile;

describe('who may download', () => {
  it('follows SPEC §6', () => {
    expect(downloadRight(undefined)).toBe('anonymous');
    expect(downloadRight(profile('USER', 'FREE'))).toBe('needs-plan');
    expect(downloadRight(profile('USER', 'BASIC'))).toBe('allowed');
    expect(downloadRight(profile('ADMIN', 'FREE'))).toBe('allowed');
  });
});
