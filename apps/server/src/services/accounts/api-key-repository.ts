import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MAX_API_KEYS } from '@parla/contract';
import type { Db } from '../../db/database.js';

/** The answers about API keys (the key routes, and the tests of the public API). */
export const API_KEY_MESSAGES = {
  tooMany: `You have ${MAX_API_KEYS} API keys; revoke one before creating another.`,
  notFound: 'You have no API key with this id.',
  revoked: 'The API key is revoked: requests signed with it are refused from now on.',
} as const;

/** Every API key starts with this, so it is told from a login token at a glance. */
export const API_KEY_PREFIX = 'parla_';

/** Characters of a key shown to recognise it: the prefix and six of its own. */
const SHOWN = API_KEY_PREFIX.length + 6;

/** The SHA-256 of an API key, the only form of it the database holds. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * API keys (issue 16). A key is 32 random bytes (base64url) after `parla_`, shown once; the
 * database holds its SHA-256 (the key has too much entropy to guess, so no slow hash is
 * needed) and its first characters.
 */
export function createApiKeyRepository(db: Db) {
  return {
    list: (userId: string) =>
      db
        .selectFrom('api_keys')
        .select(['id', 'name', 'prefix', 'created_at', 'last_used_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'asc')
        .execute(),

    /** A new key and its row, or undefined when the user has MAX_API_KEYS already. */
    create: (userId: string, name: string) =>
      db.transaction().execute(async (trx) => {
        const { count } = await trx
          .selectFrom('api_keys')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= MAX_API_KEYS) return undefined;
        const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
        const row = {
          id: randomUUID(),
          user_id: userId,
          name,
          prefix: key.slice(0, SHOWN),
          key_hash: hashApiKey(key),
          created_at: new Date().toISOString(),
          last_used_at: null,
        };
        await trx.insertInto('api_keys').values(row).execute();
        return { key, row };
      }),

    /** Revokes one of the user's keys; answers false when the user has no such key. */
    async remove(userId: string, id: string) {
      const removed = await db
        .deleteFrom('api_keys')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(removed.numDeletedRows) > 0;
    },

    /** The user a key belongs to, with the key's id and when it was last used. */
    findUserByKey: (key: string) =>
      db
        .selectFrom('api_keys')
        .innerJoin('users', 'users.id', 'api_keys.user_id')
        .selectAll('users')
        .select(['api_keys.id as api_key_id', 'api_keys.last_used_at as api_key_last_used_at'])
        .where('api_keys.key_hash', '=', hashApiKey(key))
        .executeTakeFirst(),

    async touch(id: string, at: Date) {
      await db
        .updateTable('api_keys')
        .set({ last_used_at: at.toISOString() })
        .where('id', '=', id)
        .execute();
    },
  };
}
