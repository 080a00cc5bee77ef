import type { Db } from '../../db/database.js';

/** How long an Idempotency-Key keeps its first answer. */
const IDEMPOTENCY_HOURS = 24;

/**
 * The Idempotency-Keys of the public API: a row per user and key, holding the fingerprint of
 * the first request and, once it converted, its audio file; a retry finds the first answer.
 */
export function createIdempotencyRepository(db: Db) {
  const row = (userId: string, key: string) =>
    db.selectFrom('idempotent_requests').where('user_id', '=', userId).where('key', '=', key);
  return {
    /**
     * Claims the key for a first request (forgetting keys past their time first); answers
     * false when the key is already taken.
     */
    async claim(userId: string, key: string, fingerprint: string, now = new Date()) {
      const since = new Date(now.getTime() - IDEMPOTENCY_HOURS * 3_600_000).toISOString();
      await db.deleteFrom('idempotent_requests').where('created_at', '<', since).execute();
      const inserted = await db
        .insertInto('idempotent_requests')
        .values({
          user_id: userId,
          key,
          fingerprint,
          conversion_id: null,
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    find: (userId: string, key: string) => row(userId, key).selectAll().executeTakeFirst(),

    /** The first request converted: its audio file is the answer of every retry. */
    async settle(userId: string, key: string, file: string) {
      await db
        .updateTable('idempotent_requests')
        .set({ conversion_id: file })
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute();
    },

    /** The first request failed: the key is free again, so a retry tries again. */
    async release(userId: string, key: string) {
      await db
        .deleteFrom('idempotent_requests')
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .execute();
    },
  };
}
