import { PLAN_TYPES, type PlanType } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import type { RedisClients } from '../../lib/redis.js';
import { createSharedCache } from '../../lib/shared-cache.js';
import type { PlanCatalogue, PlanTerms } from './plan-catalogue.js';
import { createPlanRepository } from './plan-repository.js';

/**
 * The plans' terms as the console left them (issue 31 §4, decision 055), kept in memory by
 * every server (lib/shared-cache.ts): a change is on the pricing page at once here, on the
 * other servers by a Redis message, and without Redis there is one process.
 */

/** How long a server keeps the terms without hearing of a change (no Redis: the bound). */
export const PLANS_TTL_MS = 5_000;

export interface PlanStoreOptions {
  ttlMs?: number;
  redis?: RedisClients | undefined;
  prefix?: string;
}

export function createPlanStore(db: Db, options: PlanStoreOptions = {}) {
  const cache = createSharedCache(() => readPlans(db), {
    topic: 'plans',
    ttlMs: options.ttlMs ?? PLANS_TTL_MS,
    redis: options.redis,
    ...(options.prefix !== undefined && { prefix: options.prefix }),
  });
  return { catalogue: cache.get, changed: cache.changed, close: cache.close };
}

export type PlanStore = ReturnType<typeof createPlanStore>;

/**
 * Writes the seed's terms (PLAN_* over the defaults) of every plan the table lacks: an empty
 * database gets them all, and a row edited in the console is never overwritten.
 */
export function seedPlans(db: Db, seed: PlanCatalogue): Promise<number> {
  return createPlanRepository(db).seedMissing(seed);
}

/** Every plan's terms in the database (the cache's read; the command line's). */
export async function readPlans(db: Db): Promise<PlanCatalogue> {
  const plans = await createPlanRepository(db).all();
  const catalogue = Object.fromEntries(
    plans.map(({ type, updated_at: _, ...terms }) => [type, terms]),
  ) as Partial<PlanCatalogue>;
  for (const type of PLAN_TYPES) {
    if (!catalogue[type]) throw new Error(`The plans table has no ${type} row (seed it at start).`);
  }
  return catalogue as PlanCatalogue;
}

/** The terms a payment or a plan change records (JSON of users.plan_terms, payments.terms). */
export const recordTerms = (terms: PlanTerms) => JSON.stringify(terms);

/**
 * The terms a user has: those their plan was bought or given with, or the plan's now (FREE,
 * and plans bought before migration 0018).
 */
export function termsOfUser(
  user: Pick<User, 'plan_type' | 'plan_terms'>,
  catalogue: PlanCatalogue,
): PlanTerms {
  return user.plan_terms
    ? (JSON.parse(user.plan_terms) as PlanTerms)
    : catalogue[user.plan_type as PlanType];
}

/** The bytes of saved files a user may keep: their plan's, or the largest for roles other than USER. */
export function storageQuota(
  user: Pick<User, 'plan_type' | 'plan_terms' | 'role'>,
  catalogue: PlanCatalogue,
): number {
  if (user.role === 'USER') return termsOfUser(user, catalogue).storage_bytes;
  return Math.max(...PLAN_TYPES.map((type) => catalogue[type].storage_bytes));
}
