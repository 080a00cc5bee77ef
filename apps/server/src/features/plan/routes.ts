import { PlanInfoSchema } from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PlanCatalogue } from '../../services/plans/plan-catalogue.js';

export interface PlanRoutesOptions {
  plans: PlanCatalogue;
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
    async () => ({
      free: plans.FREE,
      basic: plans.BASIC,
      premium: plans.PREMIUM,
      business: plans.BUSINESS,
    }),
  );
};
