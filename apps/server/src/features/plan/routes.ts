import { PlanInfoSchema } from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DEFAULT_PLAN_CATALOGUE } from './plan-catalogue.js';

export const planRoutes: FastifyPluginAsyncZod = async (app) => {
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
      free: DEFAULT_PLAN_CATALOGUE.FREE,
      basic: DEFAULT_PLAN_CATALOGUE.BASIC,
      premium: DEFAULT_PLAN_CATALOGUE.PREMIUM,
      business: DEFAULT_PLAN_CATALOGUE.BUSINESS,
    }),
  );
};
