import type { Db } from '../../db/database.js';
import { createUsageRepository } from './usage-repository.js';

/** The server holding intents, and how long its hold lasts without renewal. */
export interface IntentLease {
  owner: string;
  ms: number;
}

/** What a conversion charged: a user's characters, or a visitor's allowances. */
export type Charge =
  | { userId: string; visitorKeys?: undefined; characters: number }
  | { userId?: undefined; visitorKeys: string[]; characters: number };

/**
 * Conversion intents (issue 28 item 8): the charge of a conversion that is rendering, held by
 * its server's lease as the job runner holds a job's. Cleared when the conversion is stored;
 * refunded when it fails, or when its server died and the lease ran out. A refund and the
 * intent's end are one transaction, so a charge is given back at most once.
 */
export function createIntentRepository(db: Db) {
  const leaseEnd = (lease: IntentLease) => new Date(Date.now() + lease.ms).toISOString();

  /** Refunds the intent `id` if it is still pending (and expired, when `expiredBefore`). */
  async function refundOne(id: string, expiredBefore?: string): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      let claim = trx
        .updateTable('conversion_intents')
        .set({ refunded_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('refunded_at', 'is', null);
      if (expiredBefore) claim = claim.where('lease_until', '<', expiredBefore);
      const intent = await claim
        .returning(['user_id', 'visitor_keys', 'characters'])
        .executeTakeFirst();
      if (!intent) return false;
      const usage = createUsageRepository(trx);
      if (intent.user_id) await usage.refundUser(intent.user_id, intent.characters);
      if (intent.visitor_keys) {
        await usage.refundVisitor(JSON.parse(intent.visitor_keys) as string[], intent.characters);
      }
      return true;
    });
  }

  return {
    /** Records a charged conversion under this server's lease. */
    async record(id: string, charge: Charge, lease: IntentLease): Promise<void> {
      await db
        .insertInto('conversion_intents')
        .values({
          id,
          user_id: charge.userId ?? null,
          visitor_keys: charge.visitorKeys ? JSON.stringify(charge.visitorKeys) : null,
          characters: charge.characters,
          lease_owner: lease.owner,
          lease_until: leaseEnd(lease),
          refunded_at: null,
          created_at: new Date().toISOString(),
        })
        .execute();
    },

    /** Extends the lease of every pending intent this server holds. */
    async renew(lease: IntentLease): Promise<void> {
      await db
        .updateTable('conversion_intents')
        .set({ lease_until: leaseEnd(lease) })
        .where('lease_owner', '=', lease.owner)
        .where('refunded_at', 'is', null)
        .execute();
    },

    /** The conversion is stored (or keeps its charge): its intent is over. */
    async clear(id: string): Promise<void> {
      await db.deleteFrom('conversion_intents').where('id', '=', id).execute();
    },

    /** Gives the charge back (the conversion failed); false if it already was. */
    refund: (id: string) => refundOne(id),

    /** Refunds the intents of servers whose leases ran out; answers how many. */
    async refundExpired(now = new Date()): Promise<number> {
      const at = now.toISOString();
      const expired = await db
        .selectFrom('conversion_intents')
        .select('id')
        .where('refunded_at', 'is', null)
        .where('lease_until', '<', at)
        .execute();
      let refunded = 0;
      for (const { id } of expired) if (await refundOne(id, at)) refunded += 1;
      return refunded;
    },

    /**
     * A conversion charged and never stored: still rendering (or its server just died), or
     * refunded; undefined when there is no such intent (stored, or never charged).
     */
    async state(id: string): Promise<'pending' | 'refunded' | undefined> {
      const row = await db
        .selectFrom('conversion_intents')
        .select('refunded_at')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return row.refunded_at === null ? 'pending' : 'refunded';
    },

    /** Forgets refunded intents older than `before` (their audio would have expired too). */
    async purgeRefunded(before: Date): Promise<void> {
      await db
        .deleteFrom('conversion_intents')
        .where('refunded_at', '<', before.toISOString())
        .execute();
    },
  };
}
