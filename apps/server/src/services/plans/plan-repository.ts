import { type Engine, PLAN_TYPES, type PlanType } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { PlansTable } from '../../db/schema.js';
import { type PlanCatalogue, type PlanTerms, priceInCents } from './plan-catalogue.js';

export interface StoredPlan extends PlanTerms {
  type: PlanType;
  /** Null while the row is the seed's. */
  updated_at: string | null;
}

function fromRow(row: PlansTable): StoredPlan {
  return {
    type: row.plan_type as PlanType,
    price: row.price_cents / 100,
    // bigint columns: PostgreSQL answers them as strings.
    count_characters: Number(row.count_characters),
    count_characters_per_convert: Number(row.count_characters_per_convert),
    storage_bytes: Number(row.storage_bytes),
    engines: row.engines.split(',') as Engine[],
    updated_at: row.updated_at,
  };
}

const columnsOf = (terms: PlanTerms) => ({
  price_cents: priceInCents(terms),
  count_characters: terms.count_characters,
  count_characters_per_convert: terms.count_characters_per_convert,
  storage_bytes: terms.storage_bytes,
  engines: terms.engines.join(','),
});

/** The plans table (migration 0018): one row per plan type. */
export function createPlanRepository(db: Db) {
  return {
    /** Every plan, in PLAN_TYPES order. */
    async all(): Promise<StoredPlan[]> {
      const rows = await db.selectFrom('plans').selectAll().execute();
      const byType = new Map(rows.map((row) => [row.plan_type, fromRow(row)]));
      return PLAN_TYPES.flatMap((type) => byType.get(type) ?? []);
    },

    async find(type: PlanType): Promise<StoredPlan | undefined> {
      const row = await db
        .selectFrom('plans')
        .selectAll()
        .where('plan_type', '=', type)
        .executeTakeFirst();
      return row && fromRow(row);
    },

    /** Writes the seed's terms of the plans that have no row; an edited row is never touched. */
    async seedMissing(seed: PlanCatalogue): Promise<number> {
      const rows = PLAN_TYPES.map((type) => ({
        plan_type: type,
        ...columnsOf(seed[type]),
        updated_at: null,
      }));
      const inserted = await db
        .insertInto('plans')
        .values(rows)
        .onConflict((oc) => oc.column('plan_type').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0);
    },

    async update(type: PlanType, terms: PlanTerms, at: Date): Promise<StoredPlan> {
      const row = await db
        .updateTable('plans')
        .set({ ...columnsOf(terms), updated_at: at.toISOString() })
        .where('plan_type', '=', type)
        .returningAll()
        .executeTakeFirstOrThrow();
      return fromRow(row);
    },
  };
}
