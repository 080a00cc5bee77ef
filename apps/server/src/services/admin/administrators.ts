import type { Role } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { User } from '../../db/schema.js';
import { type Actor, createAuditLog } from './audit-log.js';

/**
 * The administrators of an installation (decision 044): made and unmade with `parla admin
 * grant|revoke EMAIL` or the console. An installation never loses its last administrator who
 * can sign in: demoting, disabling or deleting them is refused.
 */

/**
 * Serialises the changes of administrators: every one first updates one counter row (to the
 * value it has: nothing changes), which PostgreSQL keeps locked until the transaction ends
 * (SQLite has one writer anyway), so two administrators demoting each other at once cannot
 * both succeed. The row is made by migration 0013.
 */
export async function lockAdministrators(trx: Db) {
  await trx
    .updateTable('counters')
    .set((eb) => ({ value: eb.ref('value') }))
    .where('name', '=', 'administrator-changes')
    .execute();
}

/**
 * True when `user` is the last administrator who can sign in: then they may not be demoted,
 * disabled or deleted. Call after lockAdministrators, in the same transaction.
 */
export async function isLastAdministrator(
  trx: Db,
  user: Pick<User, 'id' | 'role' | 'disabled_at'>,
) {
  if (user.role !== 'ADMIN' || user.disabled_at) return false;
  const others = await trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'ADMIN')
    .where('disabled_at', 'is', null)
    .where('id', '!=', user.id)
    .limit(1)
    .executeTakeFirst();
  return !others;
}

export type RoleChange =
  | { ok: true; user: User; changed: boolean }
  | { ok: false; reason: 'not-found' | 'last-administrator' };

/** Sets a user's role, recorded in the audit log; refuses to demote the last administrator. */
export function setRole(
  db: Db,
  where: { id: string } | { email: string },
  role: Role,
  actor: Actor,
): Promise<RoleChange> {
  return db.transaction().execute(async (trx): Promise<RoleChange> => {
    await lockAdministrators(trx);
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .$call((query) =>
        'id' in where ? query.where('id', '=', where.id) : query.where('email', '=', where.email),
      )
      .executeTakeFirst();
    if (!user) return { ok: false, reason: 'not-found' };
    if (user.role === role) return { ok: true, user, changed: false };
    if (role !== 'ADMIN' && (await isLastAdministrator(trx, user))) {
      return { ok: false, reason: 'last-administrator' };
    }
    const updated = await trx
      .updateTable('users')
      .set({ role, updated_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await createAuditLog(trx).record({
      actor,
      action: 'user.role',
      targetType: 'user',
      targetId: user.id,
      before: { role: user.role },
      after: { role },
    });
    return { ok: true, user: updated, changed: true };
  });
}
