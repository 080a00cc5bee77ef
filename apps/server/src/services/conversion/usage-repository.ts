import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** How long an anonymous allowance lasts before it starts again. */
export const VISITOR_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

export interface VisitorLimits {
  /** Characters one visitor (cookie) may convert per period: the FREE plan's allowance. */
  perVisitor: number;
  /** Characters one IP address may convert per period, whatever its cookies say. */
  perIp: number;
}

export type SpendResult = { ok: true } | { ok: false; remaining: number };

/**
 * Character allowances, spent atomically in the database: each spend is one conditional
 * UPDATE that only succeeds while the balance covers it, so concurrent conversions can never
 * overdraw (the CHECK constraints are the last line).
 */
export function createUsageRepository(db: Db) {
  return {
    /** Spends from a signed-in user's remaining characters. */
    async spendUser(userId: string, characters: number): Promise<SpendResult> {
      const updated = await db
        .updateTable('users')
        .set((eb) => ({ count_characters: eb('count_characters', '-', characters) }))
        .where('id', '=', userId)
        .where('count_characters', '>=', characters)
        .returning('count_characters')
        .executeTakeFirst();
      if (updated) return { ok: true };
      const row = await db
        .selectFrom('users')
        .select('count_characters')
        .where('id', '=', userId)
        .executeTakeFirst();
      return { ok: false, remaining: row?.count_characters ?? 0 };
    },

    /** Gives characters back after a conversion that failed once they were spent. */
    async refundUser(userId: string, characters: number): Promise<void> {
      await db
        .updateTable('users')
        .set((eb) => ({ count_characters: eb('count_characters', '+', characters) }))
        .where('id', '=', userId)
        .execute();
    },

    /**
     * Spends from an anonymous visitor's allowance under both of its keys (cookie and IP) in
     * one transaction: either both have room and both are charged, or nothing changes.
     */
    async spendVisitor(
      keys: Array<{ key: string; limit: number }>,
      characters: number,
      now = new Date(),
    ): Promise<SpendResult> {
      const periodStart = new Date(now.getTime() - VISITOR_PERIOD_MS).toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          for (const { key, limit } of keys) {
            if (characters > limit) throw new Overdraw(key);
            await trx
              .insertInto('visitor_usage')
              .values({ visitor_key: key, characters_used: 0, period_start: now.toISOString() })
              .onConflict((oc) => oc.column('visitor_key').doNothing())
              .execute();
            // A period that has ended starts again with this conversion.
            const updated = await trx
              .updateTable('visitor_usage')
              .set({
                characters_used: sql<number>`case when period_start < ${periodStart} then ${characters} else characters_used + ${characters} end`,
                period_start: sql<string>`case when period_start < ${periodStart} then ${now.toISOString()} else period_start end`,
              })
              .where('visitor_key', '=', key)
              .where((eb) =>
                eb.or([
                  eb('period_start', '<', periodStart),
                  eb(sql<number>`characters_used + ${characters}`, '<=', limit),
                ]),
              )
              .returning('visitor_key')
              .executeTakeFirst();
            if (!updated) throw new Overdraw(key);
          }
        });
        return { ok: true };
      } catch (error) {
        if (!(error instanceof Overdraw)) throw error;
        return { ok: false, remaining: await this.visitorRemaining(keys, now) };
      }
    },

    async refundVisitor(keys: string[], characters: number): Promise<void> {
      for (const key of keys) {
        await db
          .updateTable('visitor_usage')
          .set({
            characters_used: sql<number>`case when characters_used < ${characters} then 0 else characters_used - ${characters} end`,
          })
          .where('visitor_key', '=', key)
          .execute();
      }
    },

    /** The smallest remaining allowance among the keys (what the visitor can still convert). */
    async visitorRemaining(keys: Array<{ key: string; limit: number }>, now = new Date()) {
      const periodStart = new Date(now.getTime() - VISITOR_PERIOD_MS).toISOString();
      let remaining = Number.POSITIVE_INFINITY;
      for (const { key, limit } of keys) {
        const row = await db
          .selectFrom('visitor_usage')
          .selectAll()
          .where('visitor_key', '=', key)
          .executeTakeFirst();
        const used = row && row.period_start >= periodStart ? row.characters_used : 0;
        remaining = Math.min(remaining, Math.max(0, limit - used));
      }
      return Number.isFinite(remaining) ? remaining : 0;
    },
  };
}

class Overdraw extends Error {}
