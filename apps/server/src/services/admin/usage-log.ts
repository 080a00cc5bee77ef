import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { UsageLogTable } from '../../db/schema.js';

export interface UsageEntry {
  source: UsageLogTable['source'];
  status: UsageLogTable['status'];
  userId: string | null;
  engine: string;
  voice: string;
  language: string;
  characters: number;
  /** Seconds of audio; 0 for a failure. */
  duration: number;
}

/**
 * The usage log (migration 0015, decision 053): a row for each conversion and job that ended,
 * read by the console's overview. Conversions expire within a day and jobs are deleted by their
 * owners; this row stays, so past days keep their figures.
 */
export function createUsageLog(db: Db) {
  return {
    async record(entry: UsageEntry, at = new Date()): Promise<void> {
      await db
        .insertInto('usage_log')
        .values({
          id: randomUUID(),
          source: entry.source,
          status: entry.status,
          user_id: entry.userId,
          engine: entry.engine,
          voice: entry.voice,
          // As BCP 47 compares them: 'en-US' and 'en-us' are one language.
          language: entry.language.toLowerCase(),
          characters: entry.characters,
          duration: entry.duration,
          created_at: at.toISOString(),
        })
        .execute();
    },
  };
}

export type UsageLog = ReturnType<typeof createUsageLog>;
