import { randomUUID } from 'node:crypto';
import type { AdminAuditEntry, AdminPageQuery, AuditAction } from '@parla/contract';
import type { Db } from '../../db/database.js';
import { pageOf } from '../../db/paging.js';

/** Who did it: an administrator of the console, or null for the command line. */
export type Actor = { id: string; email: string } | null;

export interface AuditRecord {
  actor: Actor;
  action: AuditAction;
  targetType: 'user' | 'message' | 'payment' | 'voice' | 'language' | 'plan' | 'content';
  targetId: string;
  /** What the target was before and after (JSON values; null: it did not or no longer exists). */
  before: unknown;
  after: unknown;
  reason?: string | null;
}

/**
 * The audit log of console actions (decision 044): written in the action's own transaction,
 * so an action and its record commit together; append-only (the database's triggers refuse
 * to change or remove a row, migration 0013).
 */
export function createAuditLog(db: Db) {
  return {
    async record(entry: AuditRecord, at = new Date()) {
      await db
        .insertInto('audit_log')
        .values({
          id: randomUUID(),
          actor_id: entry.actor?.id ?? null,
          actor_email: entry.actor?.email ?? null,
          action: entry.action,
          target_type: entry.targetType,
          target_id: entry.targetId,
          before: entry.before === null ? null : JSON.stringify(entry.before),
          after: entry.after === null ? null : JSON.stringify(entry.after),
          reason: entry.reason ?? null,
          created_at: at.toISOString(),
        })
        .execute();
    },

    /** A page of the log, newest first. */
    async list({ page, per_page }: AdminPageQuery) {
      const { rows, ...paging } = await pageOf(
        db.selectFrom('audit_log'),
        (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
        { page, per_page },
      );
      const items: AdminAuditEntry[] = rows.map((row) => ({
        id: row.id,
        actor_id: row.actor_id,
        actor_email: row.actor_email,
        action: row.action as AuditAction,
        target_type: row.target_type,
        target_id: row.target_id,
        before: row.before === null ? null : JSON.parse(row.before),
        after: row.after === null ? null : JSON.parse(row.after),
        reason: row.reason,
        date: row.created_at,
      }));
      return { items, ...paging };
    },
  };
}
