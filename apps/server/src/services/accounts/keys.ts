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
     * A new random key for the user and purpose. Earlier unused keys for the same address keep
     * working until they expire (a re-sent mail does not kill the link already sent); those
     * for another address (an abandoned email change) stop working.
     */
    async issue(userId: string, purpose: UserKeyPurpose, email: string, now = new Date()) {
      const key = randomBytes(32).toString('base64url');
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('user_keys')
          .where('user_id', '=', userId)
          .where('purpose', '=', purpose)
          .where('email', '!=', email)
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
     * one key exactly one succeeds. The user's other links of the purpose end with it: the
     * address is validated, or the password reset, once.
     */
    async consume(key: string, purpose: UserKeyPurpose, now = new Date()) {
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        const used = await trx
          .updateTable('user_keys')
          .set({ used_at: at })
          .where('key_hash', '=', hashKey(key))
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .where('expires_at', '>', at)
          .returning(['user_id', 'email'])
          .executeTakeFirst();
        if (!used) return undefined;
        await trx
          .updateTable('user_keys')
          .set({ used_at: at })
          .where('user_id', '=', used.user_id)
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .execute();
        return { userId: used.user_id, email: used.email };
      });
    },
  };
}
