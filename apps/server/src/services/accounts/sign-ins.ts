import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';

/** How long a sign-in is remembered (shown to administrators, decision 044). */
export const SIGN_IN_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** The successful logins of each account: when, from which address and browser. */
export function createSignInRepository(db: Db) {
  return {
    /** Records a login, forgetting the account's sign-ins older than the retention. */
    async record(userId: string, ip: string, userAgent: string | undefined, at = new Date()) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('sign_ins')
          .where('user_id', '=', userId)
          .where('created_at', '<', new Date(at.getTime() - SIGN_IN_RETENTION_MS).toISOString())
          .execute();
        await trx
          .insertInto('sign_ins')
          .values({
            id: randomUUID(),
            user_id: userId,
            ip,
            user_agent: userAgent ? userAgent.slice(0, 300) : null,
            created_at: at.toISOString(),
          })
          .execute();
      });
    },

    recent: (userId: string, limit: number) =>
      db
        .selectFrom('sign_ins')
        .select(['ip', 'user_agent', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute(),
  };
}
