import type { VoiceSettings } from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { JobPartsTable, JobsTable } from '../../db/schema.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import { createUsageRepository } from '../../services/conversion/usage-repository.js';

/** A chapter as a job's row keeps it (its `chapters` column, JSON). */
export interface JobChapterRecord {
  title: string;
  characters: number;
  /** Once assembled: where the chapter's audio lies in the whole file (start, end exclusive). */
  bytes?: [number, number];
  /** Once assembled, in Ogg (whose pages cannot be cut out of the whole): its own file. */
  key?: string;
}

/** A job's `settings` column: the voice settings without the text, and its chapters' pause. */
export type StoredJobSettings = Omit<VoiceSettings, 'text'> & {
  /** Seconds of silence between chapters (absent in jobs made before it: none). */
  chapter_pause?: number;
};

/** The voice settings of a job, for the speech service, and the pause between its chapters. */
export function jobSettings(job: Pick<JobsTable, 'settings'>): {
  voice: Omit<VoiceSettings, 'text'>;
  chapterPause: number;
} {
  const { chapter_pause, ...voice } = JSON.parse(job.settings) as StoredJobSettings;
  return { voice, chapterPause: chapter_pause ?? 0 };
}

/** Where a job's files are. */
export const jobKeys = {
  folder: (jobId: string) => `jobs/${jobId}`,
  parts: (jobId: string) => `jobs/${jobId}/parts`,
  part: (jobId: string, chapter: number, part: number, format: string) =>
    `jobs/${jobId}/parts/${chapter}-${part}.${format}`,
  /** The silence put between chapters, in the parts' format. */
  pause: (jobId: string, format: string) => `jobs/${jobId}/parts/pause.${format}`,
  audio: (jobId: string, format: string) => `jobs/${jobId}/audiobook.${format}`,
  chapter: (jobId: string, chapter: number, format: string) =>
    `jobs/${jobId}/chapters/${chapter}.${format}`,
  text: (jobId: string) => `jobs/${jobId}/text.txt`,
};

/** What the API tells of a part: how far its job has come. */
export type PartState = Pick<
  JobPartsTable,
  'chapter' | 'part' | 'characters' | 'status' | 'duration' | 'started_at' | 'rendered_at'
>;

/** A runner's hold on the job it renders: who it is, and how long a lease lasts unrenewed. */
export interface Lease {
  owner: string;
  ms: number;
}

/** A database takes a bounded number of values in one statement: parts go in batches. */
const PARTS_PER_INSERT = 200;

const ENDED = ['done', 'failed', 'cancelled'];
const UNFINISHED = ['queued', 'running'];

/**
 * Jobs and their parts (issue 19, docs/decisions/023-jobs.md): the rows the routes create,
 * show and delete, and the ones the runner leases, charges and finishes. A job's files are
 * under jobKeys.folder; a job is deleted with them.
 */
export function createJobRepository(db: Db, storage: ObjectStorage) {
  const leaseEnd = (lease: Lease) => new Date(Date.now() + lease.ms).toISOString();

  /** Moves a part from the state `from` (answers false when it was not in it). */
  async function movePart(
    part: JobPartsTable,
    from: 'pending' | 'charged',
    to: Pick<JobPartsTable, 'status'> & Partial<Pick<JobPartsTable, 'duration' | 'rendered_at'>>,
    trx: Db = db,
  ): Promise<boolean> {
    const moved = await trx
      .updateTable('job_parts')
      .set(to)
      .where('job_id', '=', part.job_id)
      .where('chapter', '=', part.chapter)
      .where('part', '=', part.part)
      .where('status', '=', from)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }

  /** A job, its files first: a failure leaves a listed job, never a job without audio. */
  async function remove(id: string): Promise<void> {
    for (const { key } of await storage.list(jobKeys.folder(id))) await storage.remove(key);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('job_parts').where('job_id', '=', id).execute();
      await trx.deleteFrom('jobs').where('id', '=', id).execute();
    });
  }

  return {
    /**
     * A new job and its parts, together, unless its user already has `cap` jobs queued or
     * running (false). The user's row is locked first (a no-op update: PostgreSQL's row lock,
     * SQLite's write lock), so that requests arriving together are counted one after the other
     * and the cap holds under a burst.
     */
    async create(job: JobsTable, parts: JobPartsTable[], cap: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', job.user_id)
          .execute();
        const active = await trx
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number | string>().as('count'))
          .where('user_id', '=', job.user_id)
          .where('status', 'in', UNFINISHED)
          .executeTakeFirstOrThrow();
        if (Number(active.count) >= cap) return false;
        await trx.insertInto('jobs').values(job).execute();
        for (let at = 0; at < parts.length; at += PARTS_PER_INSERT) {
          await trx
            .insertInto('job_parts')
            .values(parts.slice(at, at + PARTS_PER_INSERT))
            .execute();
        }
        return true;
      });
    },

    findOwn: (id: string, userId: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst(),

    /** A user's last hundred jobs, newest first. */
    listOwn: (userId: string) =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(100)
        .execute(),

    /** The parts of some jobs, in order, by job: one query however many jobs are listed. */
    async partsOf(ids: string[]): Promise<Map<string, PartState[]>> {
      const byJob = new Map<string, PartState[]>(ids.map((id) => [id, []]));
      if (ids.length === 0) return byJob;
      const rows = await db
        .selectFrom('job_parts')
        .select([
          'job_id',
          'chapter',
          'part',
          'characters',
          'status',
          'duration',
          'started_at',
          'rendered_at',
        ])
        .where('job_id', 'in', ids)
        .orderBy('job_id')
        .orderBy('chapter')
        .orderBy('part')
        .execute();
      for (const { job_id, ...part } of rows) byJob.get(job_id)?.push(part);
      return byJob;
    },

    /** Cancels a queued or running job; false when it had already ended. */
    async cancel(id: string): Promise<boolean> {
      const now = new Date().toISOString();
      const cancelled = await db
        .updateTable('jobs')
        .set({ status: 'cancelled', finished_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirst();
      return Number(cancelled.numUpdatedRows) === 1;
    },

    remove,

    /** Deletes the jobs that ended, and were last touched, before `before`; answers how many. */
    async purgeEnded(before: Date): Promise<number> {
      const at = before.toISOString();
      const ended = await db
        .selectFrom('jobs')
        .select('id')
        .where('status', 'in', ENDED)
        .where((eb) => eb.or([eb('finished_at', '<', at), eb('finished_at', 'is', null)]))
        .where('updated_at', '<', at)
        .execute();
      for (const { id } of ended) await remove(id);
      return ended.length;
    },

    /** How many jobs a user has queued or running. */
    async activeCount(userId: string): Promise<number> {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', userId)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Takes a job whose lease is free (queued, or running on a server that went away), round
     * robin by user (docs/decisions/036): first the users with fewest jobs being rendered now,
     * then the one served longest ago (never, first), then the oldest job. One user's hundred
     * jobs wait behind another's one.
     */
    async claim(lease: Lease): Promise<JobsTable | undefined> {
      const now = new Date().toISOString();
      const candidates = await db
        .selectFrom('jobs as j')
        .select('j.id')
        .where('j.status', 'in', UNFINISHED)
        .where((eb) => eb.or([eb('j.lease_until', 'is', null), eb('j.lease_until', '<', now)]))
        .orderBy((eb) =>
          eb
            .selectFrom('jobs as held')
            .select((inner) => inner.fn.countAll().as('held'))
            .whereRef('held.user_id', '=', 'j.user_id')
            .where('held.status', '=', 'running')
            .where('held.lease_until', '>=', now),
        )
        .orderBy((eb) =>
          eb
            .selectFrom('jobs as served')
            .select((inner) =>
              inner.fn.coalesce(inner.fn.max('served.started_at'), inner.val('')).as('last'),
            )
            .whereRef('served.user_id', '=', 'j.user_id'),
        )
        .orderBy('j.created_at')
        .limit(5)
        .execute();
      for (const { id } of candidates) {
        const taken = await db
          .updateTable('jobs')
          .set({
            lease_owner: lease.owner,
            lease_until: leaseEnd(lease),
            status: 'running',
            started_at: (eb) => eb.fn.coalesce('started_at', eb.val(now)),
            updated_at: now,
          })
          .where('id', '=', id)
          .where('status', 'in', UNFINISHED)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) === 1) {
          return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
        }
      }
      return undefined;
    },

    /** Renews the lease; false when the job is no longer this runner's to render. */
    async renew(jobId: string, lease: Lease): Promise<boolean> {
      const renewed = await db
        .updateTable('jobs')
        .set({ lease_until: leaseEnd(lease) })
        .where('id', '=', jobId)
        .where('lease_owner', '=', lease.owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(renewed.numUpdatedRows) === 1;
    },

    /** Ends a job this runner holds, releasing its lease; false when it no longer held it. */
    async finish(jobId: string, lease: Lease, values: Partial<JobsTable>): Promise<boolean> {
      const now = new Date().toISOString();
      const ended = await db
        .updateTable('jobs')
        .set({ ...values, lease_owner: null, lease_until: null, finished_at: now, updated_at: now })
        .where('id', '=', jobId)
        .where('lease_owner', '=', lease.owner)
        .executeTakeFirst();
      return Number(ended.numUpdatedRows) === 1;
    },

    async status(jobId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', jobId)
        .executeTakeFirst();
      return row?.status;
    },

    /** The address a job's owner is told at, when the account still exists. */
    async ownerEmail(job: JobsTable): Promise<string | undefined> {
      const user = await db
        .selectFrom('users')
        .select('email')
        .where('id', '=', job.user_id)
        .executeTakeFirst();
      return user?.email;
    },

    /** A job's parts in reading order; `unfinished`: only those not yet done. */
    parts: (jobId: string, options: { unfinished?: boolean } = {}) =>
      db
        .selectFrom('job_parts')
        .selectAll()
        .where('job_id', '=', jobId)
        .$if(options.unfinished === true, (query) => query.where('status', '!=', 'done'))
        .orderBy('chapter')
        .orderBy('part')
        .execute(),

    /**
     * Charges a pending part to the job's owner and marks it taken, together; the charge fails
     * when too few characters are left.
     */
    charge: (job: JobsTable, part: JobPartsTable) =>
      db.transaction().execute(async (trx) => {
        const spent = await createUsageRepository(trx).spendUser(job.user_id, part.characters);
        if (!spent.ok) return { ok: false as const, left: spent.remaining };
        await movePart(part, 'pending', { status: 'charged' }, trx);
        return { ok: true as const };
      }),

    /** A taken part given back: its characters returned, pending again. */
    async giveBack(job: JobsTable, part: JobPartsTable): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (await movePart(part, 'charged', { status: 'pending' }, trx)) {
          await createUsageRepository(trx).refundUser(job.user_id, part.characters);
        }
      });
    },

    /** A taken part whose rendering begins now (again, after a crash): the speed is timed. */
    async partStarted(part: JobPartsTable): Promise<void> {
      await db
        .updateTable('job_parts')
        .set({ started_at: new Date().toISOString() })
        .where('job_id', '=', part.job_id)
        .where('chapter', '=', part.chapter)
        .where('part', '=', part.part)
        .execute();
    },

    /** A rendered part: done, with its duration and when, and its job touched. */
    async partDone(part: JobPartsTable, duration: number): Promise<void> {
      const now = new Date().toISOString();
      await movePart(part, 'charged', { status: 'done', duration, rendered_at: now });
      await db.updateTable('jobs').set({ updated_at: now }).where('id', '=', part.job_id).execute();
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
