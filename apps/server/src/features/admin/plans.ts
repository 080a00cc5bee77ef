import {
  ADMIN_PLAN_MESSAGES,
  type AdminPlanList,
  AdminPlanListSchema,
  AdminPlanTermsInputSchema,
  AdminPlanTypeParamsSchema,
  ErrorResponseSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import { createAuditLog } from '../../services/admin/audit-log.js';
import { createPlanRepository, type StoredPlan } from '../../services/plans/plan-repository.js';
import type { PlanStore } from '../../services/plans/plan-store.js';

export interface AdminPlanRoutesOptions {
  db: Db;
  plans: PlanStore;
}

const bearer = [{ bearerAuth: [] }];
const tags = ['admin'];
const errors = { '4xx': ErrorResponseSchema };

const list = (plans: StoredPlan[]): AdminPlanList => ({ plans });

/** What the audit log keeps of a plan: its terms. */
const termsOf = ({ type: _, updated_at: __, ...terms }: StoredPlan) => terms;

/**
 * The console's Plans (issue 31 §4, decision 055), registered under the console's guard
 * (routes.ts): every plan's terms, and one plan's replaced. A change applies to purchases made
 * after it (a payment records what it bought) and is on the pricing page at once.
 */
export const adminPlanRoutes: FastifyPluginAsyncZod<AdminPlanRoutesOptions> = async (
  app,
  options,
) => {
  const { db, plans } = options;

  app.get(
    '/plans',
    {
      schema: {
        tags,
        summary:
          "Every plan's terms now: price, characters, per-conversion limit, storage, engines",
        security: bearer,
        response: { 200: AdminPlanListSchema, ...errors },
      },
    },
    async () => list(await createPlanRepository(db).all()),
  );

  app.put(
    '/plans/:type',
    {
      schema: {
        tags,
        summary:
          "Replace a plan's terms; applies to purchases made from now on (users keep what they bought) and shows on the pricing page at once",
        security: bearer,
        params: AdminPlanTypeParamsSchema,
        body: AdminPlanTermsInputSchema,
        response: { 200: AdminPlanListSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { type } = request.params;
      const terms = request.body;
      if (type === 'FREE' && terms.price !== 0) {
        const message = ADMIN_PLAN_MESSAGES.freePrice;
        return reply.code(400).send({ message, errors: [{ path: 'price', message }] });
      }
      await db.transaction().execute(async (trx) => {
        const repository = createPlanRepository(trx);
        const before = await repository.find(type);
        const after = await repository.update(type, terms, new Date());
        await createAuditLog(trx).record({
          actor: { id: request.user.id, email: request.user.email },
          action: 'plan.update',
          targetType: 'plan',
          targetId: type,
          before: before ? termsOf(before) : null,
          after: termsOf(after),
        });
      });
      await plans.changed();
      return list(await createPlanRepository(db).all());
    },
  );
};
