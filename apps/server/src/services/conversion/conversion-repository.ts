import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { marksKey } from '../../lib/marks.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';

/** Anonymous audio is removed after an hour; a signed-in user's unsaved audio after a day. */
export const RETENTION_MS = { anonymous: 60 * 60 * 1000, user: 24 * 60 * 60 * 1000 } as const;
/** Audio no row names is removed only after this, so a conversion in flight is never touched. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface NewConversion {
  /** From newId(); the audio is already stored under key(id, format). */
  id: string;
  userId: string | null;
  visitorId: string | null;
  format: string;
  mimeType: string;
  size: number;
  duration: number;
  characters: number;
}

/**
 * Converted audio: a row per conversion and its bytes in the installation's storage under
 * `audio/{id}.{format}` (DATA_DIR/files/audio on local disk), its speech marks beside it.
 */
export function createConversionRepository(db: Db, storage: ObjectStorage) {
  const fileName = (id: string, format: string) => `${id}.${format}`;
  const key = (id: string, format: string) => `audio/${fileName(id, format)}`;
  const removeAudio = (rows: Array<{ id: string; format: string }>) =>
    Promise.all(
      rows.flatMap((row) => [
        storage.remove(key(row.id, row.format)),
        storage.remove(marksKey(key(row.id, row.format))),
      ]),
    );

  return {
    fileName,
    key,
    newId: () => randomBytes(16).toString('base64url'),

    /** Writes the row of audio stored under key(id, format); removes the audio if it cannot. */
    async create(conversion: NewConversion, now = new Date()) {
      const { id } = conversion;
      const retention = conversion.userId ? RETENTION_MS.user : RETENTION_MS.anonymous;
      await db
        .insertInto('conversions')
        .values({
          id,
          user_id: conversion.userId,
          visitor_id: conversion.visitorId,
          format: conversion.format,
          mime_type: conversion.mimeType,
          size: conversion.size,
          duration: conversion.duration,
          characters: conversion.characters,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + retention).toISOString(),
        })
        .execute()
        .catch(async (error: unknown) => {
          await storage.remove(key(id, conversion.format));
          await storage.remove(marksKey(key(id, conversion.format)));
          throw error;
        });
      return { id, file: fileName(id, conversion.format) };
    },

    /** A conversion that still exists, or undefined. */
    findLive: (id: string, now = new Date()) =>
      db
        .selectFrom('conversions')
        .selectAll()
        .where('id', '=', id)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst(),

    /**
     * Deletes the rows of every conversion of a user (account deletion, inside its transaction)
     * and answers a function that removes their audio, to call once the transaction committed.
     */
    async removeForUser(userId: string) {
      const rows = await db
        .deleteFrom('conversions')
        .where('user_id', '=', userId)
        .returning(['id', 'format'])
        .execute();
      return () => removeAudio(rows);
    },

    /**
     * Removes expired conversions and their audio, and audio no row names after an hour (a
     * server stopped between rendering and writing the row); answers how many expired.
     */
    async purgeExpired(now = new Date()) {
      const expired = await db
        .deleteFrom('conversions')
        .where('expires_at', '<=', now.toISOString())
        .returning(['id', 'format'])
        .execute();
      await removeAudio(expired);
      const graceStart = now.getTime() - ORPHAN_GRACE_MS;
      const old = (await storage.list('audio'))
        .filter((entry) => entry.modifiedAt.getTime() < graceStart)
        .map((entry) => ({
          key: entry.key,
          id: entry.key.slice('audio/'.length).split('.')[0] ?? '',
        }));
      if (old.length > 0) {
        const named = new Set(
          (
            await db
              .selectFrom('conversions')
              .select('id')
              .where(
                'id',
                'in',
                old.map((entry) => entry.id),
              )
              .execute()
          ).map((row) => row.id),
        );
        for (const entry of old) if (!named.has(entry.id)) await storage.remove(entry.key);
      }
      return expired.length;
    },
  };
}
