import type { Db } from '../../db/database.js';

/**
 * Wrong passwords per address (issue 13 item 7): the first ten cost nothing; from the tenth on,
 * the address must wait before its next attempt, twice as long after each further failure, up
 * to five minutes. The owner is slowed down with the guesser, never locked out; a success, or a
 * day without failures, starts over. Kept in the database, so every server sees the same count,
 * and for unknown addresses too, so the answer does not reveal which addresses have accounts.
 */
export const LOGIN_DELAY = {
  freeFailures: 10,
  firstDelaySeconds: 1,
  maxDelaySeconds: 5 * 60,
  forgetAfterMs: 24 * 60 * 60 * 1000,
} as const;

/** Seconds to wait after the last failure, when `failures` wrong passwords were given in a row. */
export function loginDelaySeconds(failures: number): number {
  if (failures < LOGIN_DELAY.freeFailures) return 0;
  const doubled = LOGIN_DELAY.firstDelaySeconds * 2 ** (failures - LOGIN_DELAY.freeFailures);
  return Math.min(doubled, LOGIN_DELAY.maxDelaySeconds);
}

export function createLoginFailureRepository(db: Db) {
  return {
    /** Seconds the address must still wait before a password is checked (0: go ahead). */
    async waitSeconds(address: string, now: Date): Promise<number> {
      const row = await db
        .selectFrom('login_failures')
        .selectAll()
        .where('address', '=', address)
        .executeTakeFirst();
      if (!row) return 0;
      const readyAt = Date.parse(row.last_failed_at) + loginDelaySeconds(row.failures) * 1000;
      return Math.max(0, Math.ceil((readyAt - now.getTime()) / 1000));
    },

    async recordFailure(address: string, now: Date) {
      const at = now.toISOString();
      const stale = new Date(now.getTime() - LOGIN_DELAY.forgetAfterMs).toISOString();
      await db
        .insertInto('login_failures')
        .values({ address, failures: 1, last_failed_at: at })
        .onConflict((oc) =>
          oc.column('address').doUpdateSet((eb) => ({
            failures: eb
              .case()
              .when('login_failures.last_failed_at', '<', stale)
              .then(1)
              .else(eb('login_failures.failures', '+', 1))
              .end(),
            last_failed_at: at,
          })),
        )
        .execute();
    },

    async clear(address: string) {
      await db.deleteFrom('login_failures').where('address', '=', address).execute();
    },
  };
}
