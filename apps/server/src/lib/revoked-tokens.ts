import type { Db } from '../db/database.js';

/**
 * Tokens ended by logout, by `jti` (docs/decisions/013-logout-revokes-by-jti.md). A row is kept
 * until the token would have expired anyway, so the table holds at most one login lifetime of
 * logouts; each revocation sweeps the rows that no longer matter.
 */
export function createRevokedTokenRepository(db: Db) {
  return {
    async revoke(jti: string, expiresAt: Date, now = new Date()) {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('revoked_tokens')
          .where('expires_at', '<=', now.toISOString())
          .execute();
        await trx
          .insertInto('revoked_tokens')
          .values({ jti, expires_at: expiresAt.toISOString() })
          .onConflict((oc) => oc.column('jti').doNothing())
          .execute();
      });
    },

    async isRevoked(jti: string) {
      const row = await db
        .selectFrom('revoked_tokens')
        .select('jti')
        .where('jti', '=', jti)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
