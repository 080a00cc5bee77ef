import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { UserKeyPurpose } from '../../db/schema.js';

/** How long a mailed link works (issue 5: validation 24 h, reset 1 h). */
export const KEY_LIFETIME_MS: Record<UserKeyPurpose, number> = {
  validate_email: 24 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export function createKeyRepository(db: Db) {
  return {
    /**
     * A new random key for the user and purpose; earlier unused keys of the same purpose stop
     * working, so only the latest mail's link is valid.
     */
    async issue(userId: string, purpose: UserKeyPurpose, email: string, now = new Date()) {
      const key = randomBytes(32).toString('base64url');
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('user_keys')
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('user_keys')
          .values({
            key_hash: hashKey(key),
            user_id: userId,
            purpose,
            email,
            expires_at: new Date(now.getTime() + KEY_LIFETIME_MS[purpose]).toISOString(),
            used_at: null,
            created_at: now.toISOString(),
          })
          .execute();
      });
      return key;
    },

    /**
     * Marks the key used and answers what it proves, or undefined when it is unknown, used,
     * expired or of another purpose. The update is conditional, so of two concurrent uses of
     * one key exactly one succeeds.
     */
    async consume(key: string, purpose: UserKeyPurpose, now = new Date()) {
      const used = await db
        .updateTable('user_keys')
        .set({ used_at: now.toISOString() })
        .where('key_hash', '=', hashKey(key))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .returning(['user_id', 'email'])
        .executeTakeFirst();
      return used ? { userId: used.user_id, email: used.email } : undefined;
    },
  };
}
