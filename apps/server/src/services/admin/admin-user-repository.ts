import type { AdminUser, AdminUserDetail, AdminUserQuery, Role } from '@parla/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { pageOf } from '../../db/paging.js';
import type { User } from '../../db/schema.js';
import { createApiKeyRepository } from '../accounts/api-key-repository.js';
import { createSignInRepository } from '../accounts/sign-ins.js';
import { planOf } from '../accounts/user-repository.js';

/** A user as the console lists them. */
export function toAdminUser(user: User): AdminUser {
  return {
    id: user.id,
    email: user.email,
    role: user.role as Role,
    email_validated: user.email_validated_at !== null,
    disabled_date: user.disabled_at,
    plan: planOf(user),
    created_date: user.created_at,
  };
}

/** `%text%` for LIKE, with LIKE's own characters in `text` escaped (by a backslash). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The condition that the address in `column` contains `text` (addresses are stored lower-case). */
export const emailContains = (column: 'email' | 'users.email', text: string) =>
  sql<boolean>`${sql.ref(column)} like ${containing(text.toLowerCase())} escape '\\'`;

/** How far back a user's usage history goes, and how many of each list the detail shows. */
const USAGE_DAYS = 30;
const RECENT = 20;

/**
 * The console's reads of users (its writes are in ../accounts/user-repository.ts, called by the
 * console's routes with their audit entries).
 */
export function createAdminUserRepository(db: Db) {
  return {
    /** A page of users whose address contains `query` (addresses are stored lower-case). */
    async search({ query, page, per_page }: AdminUserQuery) {
      const base = db
        .selectFrom('users')
        .$if(query !== '', (q) => q.where(emailContains('email', query)));
      const { rows, ...paging } = await pageOf(
        base,
        (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id'),
        { page, per_page },
      );
      return { items: rows.map(toAdminUser), ...paging };
    },

    /** Everything the console shows of one user. */
    async detail(user: User, now = new Date()): Promise<AdminUserDetail> {
      const since = new Date(now.getTime() - USAGE_DAYS * 24 * 60 * 60 * 1000).toISOString();
      const day = sql<string>`substr(created_at, 1, 10)`;
      // The usage log, not the conversions: those are deleted when their audio expires.
      const usage = await db
        .selectFrom('usage_log')
        .select((eb) => [
          day.as('day'),
          eb.fn.sum<number | string>('characters').as('characters'),
          eb.fn.countAll<number | string>().as('conversions'),
        ])
        .where('user_id', '=', user.id)
        .where('status', '=', 'succeeded')
        .where('created_at', '>=', since)
        .groupBy(day)
        .orderBy(day, 'desc')
        .execute();
      const jobs = await db
        .selectFrom('jobs')
        .select(['id', 'title', 'status', 'characters', 'created_at'])
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .limit(RECENT)
        .execute();
      const files = await db
        .selectFrom('files')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('count'),
          eb.fn.sum<number | string | null>('size').as('bytes'),
        ])
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow();
      const recentFiles = await db
        .selectFrom('files')
        .select(['id', 'voice', 'audio_format', 'length', 'size', 'created_at'])
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(RECENT)
        .execute();
      const payments = await db
        .selectFrom('payments')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .limit(RECENT)
        .execute();
      const keys = await createApiKeyRepository(db).list(user.id);
      const signIns = await createSignInRepository(db).recent(user.id, RECENT);
      return {
        user: toAdminUser(user),
        usage: usage.map((row) => ({
          day: row.day,
          characters: Number(row.characters),
          conversions: Number(row.conversions),
        })),
        files: {
          count: Number(files.count),
          bytes: Number(files.bytes ?? 0),
          recent: recentFiles.map((file) => ({
            id: file.id,
            voice: file.voice,
            audio_format: file.audio_format,
            length: file.length,
            size: file.size,
            created_date: file.created_at,
          })),
        },
        jobs: jobs.map((job) => ({
          id: job.id,
          title: job.title,
          status: job.status,
          characters: job.characters,
          created_date: job.created_at,
        })),
        api_keys: keys.map((key) => ({
          id: key.id,
          name: key.name,
          prefix: key.prefix,
          created_date: key.created_at,
          last_used_date: key.last_used_at,
        })),
        payments: payments.map((payment) => ({
          id: payment.id,
          plan_type: payment.plan_type,
          amount_cents: payment.amount_cents,
          currency: payment.currency,
          status: payment.status,
          provider: payment.provider,
          provider_payment_id: payment.provider_payment_id,
          created_date: payment.created_at,
        })),
        sign_ins: signIns.map((signIn) => ({
          ip: signIn.ip,
          user_agent: signIn.user_agent,
          date: signIn.created_at,
        })),
      };
    },
  };
}
