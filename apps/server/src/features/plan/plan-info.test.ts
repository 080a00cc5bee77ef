import { PlanInfoSchema } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/test-app.js';

const app = await createTestApp();

describe('GET /api/plan/info', () => {
  it('answers every plan without a token, each paid plan giving more than the one below', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/plan/info' });
    expect(response.statusCode).toBe(200);
    const info = PlanInfoSchema.parse(response.json());
    expect(info.free.price).toBe(0);
    const ladder = [info.free, info.basic, info.premium, info.business];
    for (let i = 1; i < ladder.length; i += 1) {
      const [lower, higher] = [ladder[i - 1], ladder[i]];
      expect(higher?.price).toBeGreaterThan(lower?.price ?? Number.POSITIVE_INFINITY);
      expect(higher?.count_characters).toBeGreaterThan(
        lower?.count_characters ?? Number.POSITIVE_INFINITY,
      );
      expect(higher?.count_characters_per_convert).toBeGreaterThan(
        lower?.count_characters_per_convert ?? Number.POSITIVE_INFINITY,
      );
    }
  });
});
