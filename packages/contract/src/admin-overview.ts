import * as z from 'zod/mini';

// The console's overview (issue 31 section 1, docs/api.md "Operator console API", decision 053)
//
//   GET /api/admin/overview?from=YYYY-MM-DD&to=YYYY-MM-DD   AdminOverviewSchema
//   GET /api/admin/overview/health                          AdminHealthSchema

/** The longest period the overview answers, and the one it answers without `from`/`to`. */
export const OVERVIEW_DAYS = { max: 366, default: 30 } as const;

export const ADMIN_OVERVIEW_MESSAGES = {
  date: (field: 'from' | 'to') =>
    `${field} must be a day written YYYY-MM-DD (UTC), for example 2026-11-01.`,
  order: 'from must be on or before to.',
  tooLong: `The period is at most ${OVERVIEW_DAYS.max} days: choose a later from or an earlier to.`,
} as const;

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of an instant, in UTC. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The day `days` after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));
}

/** Days from `from` to `to`, both counted (1 for one day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
  utcDay(new Date(`${value}T00:00:00Z`)) === value;

const day = (field: 'from' | 'to') =>
  z
    .string({ error: ADMIN_OVERVIEW_MESSAGES.date(field) })
    .check(z.refine(isDay, { error: ADMIN_OVERVIEW_MESSAGES.date(field) }));

/**
 * The period asked for, its gaps filled: `to` is today (UTC) unless given, `from` is
 * `OVERVIEW_DAYS.default` days up to `to` unless given.
 */
export function overviewPeriod(
  query: { from?: string | undefined; to?: string | undefined },
  now = new Date(),
): { from: string; to: string } {
  const to = query.to ?? utcDay(now);
  return { from: query.from ?? addDays(to, 1 - OVERVIEW_DAYS.default), to };
}

/** The period's checks, once each day given is a day (a bad day has its own message). */
const periodCheck =
  (ok: (from: string, to: string) => boolean) =>
  (query: { from?: string | undefined; to?: string | undefined }) => {
    if ([query.from, query.to].some((value) => value !== undefined && !isDay(value))) return true;
    const { from, to } = overviewPeriod(query);
    return ok(from, to);
  };

export const AdminOverviewQuerySchema = z
  .object({ from: z.optional(day('from')), to: z.optional(day('to')) })
  .check(
    z.refine(
      periodCheck((from, to) => from <= to),
      { error: ADMIN_OVERVIEW_MESSAGES.order, path: ['from'] },
    ),
    z.refine(
      periodCheck((from, to) => from > to || daysBetween(from, to) <= OVERVIEW_DAYS.max),
      { error: ADMIN_OVERVIEW_MESSAGES.tooLong, path: ['from'] },
    ),
  );
export type AdminOverviewQuery = z.infer<typeof AdminOverviewQuerySchema>;

const count = z.number().check(z.int(), z.nonnegative());

/** The figures of one day, or of the whole period. */
export const OverviewFiguresSchema = z.object({
  /** Accounts created. */
  sign_ups: count,
  /** Users with a conversion, a job or a sign-in (a period's total counts each user once). */
  active_users: count,
  /** Conversions and jobs rendered (a job, however long, counts one). */
  conversions: count,
  /** Characters of those conversions and jobs. */
  characters: count,
  /** Minutes of audio they produced. */
  audio_minutes: z.number().check(z.nonnegative()),
  /** Succeeded payments, in cents of `currency`. */
  revenue_cents: count,
  /** Conversions and jobs that failed for the service's reasons (not the caller's). */
  errors: count,
});
export type OverviewFigures = z.infer<typeof OverviewFiguresSchema>;

export const OverviewDaySchema = z.extend(OverviewFiguresSchema, { day: z.string() });
export type OverviewDay = z.infer<typeof OverviewDaySchema>;

const usage = { conversions: count, characters: count };

export const AdminOverviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  /** Every day of the period, oldest first; a day without data has zeros. */
  days: z.array(OverviewDaySchema),
  totals: OverviewFiguresSchema,
  /** The most used voices of the period (at most 10), by conversions then characters. */
  top_voices: z.array(
    z.object({ voice: z.string(), engine: z.string(), language: z.string(), ...usage }),
  ),
  /** The most used languages of the period (at most 10). */
  top_languages: z.array(z.object({ language: z.string(), ...usage })),
});
export type AdminOverview = z.infer<typeof AdminOverviewSchema>;

/** How the speech service is doing now, as this server sees it. */
export const AdminHealthSchema = z.object({
  /** Each remote provider configured (Polly, Azure, an OpenAI-compatible server). */
  providers: z.array(
    z.object({
      provider: z.string(),
      name: z.string(),
      available: z.boolean(),
      /** Failures in a row. */
      failures: count,
      last_error: z.nullable(z.string()),
    }),
  ),
  /** Each engine this server rendered with since it started (its Prometheus metrics). */
  engines: z.array(
    z.object({
      engine: z.string(),
      conversions: count,
      /** Conversions that failed for the service's reasons. */
      failed: count,
      /** Mean time from request to stored audio, in seconds; null before the first. */
      mean_seconds: z.nullable(z.number()),
    }),
  ),
  /** Speech requests waiting for a worker and being rendered (zeros without Redis). */
  queue: z.object({ redis: z.boolean(), waiting: count, active: count }),
  /** The processes rendering speech and their worker threads. */
  workers: z.object({ processes: count, threads: count }),
});
export type AdminHealth = z.infer<typeof AdminHealthSchema>;
