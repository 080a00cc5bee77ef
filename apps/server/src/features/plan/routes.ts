import { PlanInfoSchema } from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PlanStore } from '../../services/plans/plan-store.js';

export interface PlanRoutesOptions {
  plans: PlanStore;
}

export const planRoutes: FastifyPluginAsyncZod<PlanRoutesOptions> = async (app, options) => {
  const { plans } = options;
  app.get(
    '/info',
    {
      schema: {
        tags: ['plan'],
        summary: 'Price and character limits of every plan (no token needed)',
        response: { 200: PlanInfoSchema },
      },
    },
    async () => {
      const catalogue = await plans.catalogue();
      return {
        free: catalogue.FREE,
        basic: catalogue.BASIC,
        premium: catalogue.PREMIUM,
        business: catalogue.BUSINESS,
      };
    },
  );
};
