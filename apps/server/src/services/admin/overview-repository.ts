import {
  type AdminOverview,
  addDays,
  daysBetween,
  type OverviewDay,
  type OverviewFigures,
} from '@parla/contract';
import { type Expression, sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** How many voices and languages the overview lists. */
const TOP = 10;

/** The UTC day of an ISO instant stored as text (decision 003): the same on both engines. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** Sums answer strings on PostgreSQL (bigint) and null over no rows. */
const num = (value: number | string | null | undefined) => Number(value ?? 0);

const ZERO: OverviewFigures = {
  sign_ups: 0,
  active_users: 0,
  conversions: 0,
  characters: 0,
  audio_minutes: 0,
  revenue_cents: 0,
  errors: 0,
};

/** Rounds minutes to the hundredth, so sums read the same on both engines. */
const minutes = (seconds: number) => Math.round((seconds / 60) * 100) / 100;

/**
 * The console's overview (decision 053): each figure is one query grouped by day in SQL over
 * an indexed `created_at`, for the days from `from` to `to` (UTC, both included).
 */
export function createOverviewRepository(db: Db) {
  return {
    async figures(from: string, to: string): Promise<AdminOverview> {
      const start = `${from}T00:00:00.000Z`;
      const end = `${addDays(to, 1)}T00:00:00.000Z`;
      const succeeded = (value: Expression<unknown>) =>
        sql<number>`case when status = 'succeeded' then ${value} else 0 end`;

      const usage = await db
        .selectFrom('usage_log')
        .select((eb) => [
          dayOf('created_at').as('day'),
          eb.fn.sum<number | string>(succeeded(sql.lit(1))).as('conversions'),
          eb.fn.sum<number | string>(succeeded(sql.ref('characters'))).as('characters'),
          eb.fn.sum<number | string>(succeeded(sql.ref('duration'))).as('seconds'),
          eb.fn
            .sum<number | string>(sql<number>`case when status = 'failed' then 1 else 0 end`)
            .as('errors'),
        ])
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .groupBy(dayOf('created_at'))
        .execute();

      const signUps = await db
        .selectFrom('users')
        .select((eb) => [dayOf('created_at').as('day'), eb.fn.countAll<number | string>().as('n')])
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .groupBy(dayOf('created_at'))
        .execute();

      const revenue = await db
        .selectFrom('payments')
        .select((eb) => [
          dayOf('created_at').as('day'),
          eb.fn.sum<number | string>('amount_cents').as('cents'),
        ])
        .where('status', '=', 'succeeded')
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .groupBy(dayOf('created_at'))
        .execute();

      // Refunds (decision 051) are taken off the day they were made, not the payment's day;
      // a refund the provider has not confirmed yet counts, as it does for the payment.
      const refunded = await db
        .selectFrom('refunds')
        .select((eb) => [
          dayOf('created_at').as('day'),
          eb.fn.sum<number | string>('amount_cents').as('cents'),
        ])
        .where('status', '!=', 'failed')
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .groupBy(dayOf('created_at'))
        .execute();

      // A user active on a day: a conversion or job of theirs ended, or they signed in. UNION
      // (not UNION ALL) keeps one row per user and day, so counting rows counts users.
      const activity = db
        .selectFrom('usage_log')
        .select([dayOf('created_at').as('day'), 'user_id'])
        .where('user_id', 'is not', null)
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .union(
          db
            .selectFrom('sign_ins')
            .select([dayOf('created_at').as('day'), 'user_id'])
            .where('created_at', '>=', start)
            .where('created_at', '<', end),
        )
        .as('activity');
      const active = await db
        .selectFrom(activity)
        .select((eb) => ['day', eb.fn.countAll<number | string>().as('n')])
        .groupBy('day')
        .execute();
      const activeTotal = await db
        .selectFrom(activity)
        .select((eb) => eb.fn.count<number | string>('user_id').distinct().as('n'))
        .executeTakeFirstOrThrow();

      const days = new Map<string, OverviewDay>();
      for (let i = 0; i < daysBetween(from, to); i++) {
        const day = addDays(from, i);
        days.set(day, { day, ...ZERO });
      }
      const at = (day: string) => days.get(day) as OverviewDay;
      for (const row of usage) {
        Object.assign(at(row.day), {
          conversions: num(row.conversions),
          characters: num(row.characters),
          audio_minutes: minutes(num(row.seconds)),
          errors: num(row.errors),
        });
      }
      for (const row of signUps) at(row.day).sign_ups = num(row.n);
      for (const row of revenue) at(row.day).revenue_cents = num(row.cents);
      for (const row of refunded) at(row.day).revenue_cents -= num(row.cents);
      for (const row of active) at(row.day).active_users = num(row.n);

      const list = [...days.values()];
      const sum = (key: keyof OverviewFigures) => list.reduce((total, d) => total + d[key], 0);
      const totals: OverviewFigures = {
        sign_ups: sum('sign_ups'),
        active_users: num(activeTotal.n),
        conversions: sum('conversions'),
        characters: sum('characters'),
        audio_minutes: minutes(usage.reduce((total, row) => total + num(row.seconds), 0)),
        revenue_cents: sum('revenue_cents'),
        errors: sum('errors'),
      };

      const used = db
        .selectFrom('usage_log')
        .where('status', '=', 'succeeded')
        .where('created_at', '>=', start)
        .where('created_at', '<', end);
      const conversions = sql<number | string>`count(*)`;
      const characters = sql<number | string>`sum(characters)`;
      const voices = await used
        .select(['voice', 'engine', 'language', conversions.as('conversions')])
        .select(characters.as('characters'))
        .groupBy(['voice', 'engine', 'language'])
        .orderBy(conversions, 'desc')
        .orderBy(characters, 'desc')
        .orderBy('voice')
        .limit(TOP)
        .execute();
      const languages = await used
        .select(['language', conversions.as('conversions'), characters.as('characters')])
        .groupBy('language')
        .orderBy(conversions, 'desc')
        .orderBy(characters, 'desc')
        .orderBy('language')
        .limit(TOP)
        .execute();

      return {
        from,
        to,
        currency: 'usd',
        days: list,
        totals,
        top_voices: voices.map((row) => ({
          voice: row.voice,
          engine: row.engine,
          language: row.language,
          conversions: num(row.conversions),
          characters: num(row.characters),
        })),
        top_languages: languages.map((row) => ({
          language: row.language,
          conversions: num(row.conversions),
          characters: num(row.characters),
        })),
      };
    },
  };
}
