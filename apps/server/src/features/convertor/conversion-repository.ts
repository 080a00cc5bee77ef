import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/database.js';

/** Anonymous audio is removed after an hour; a signed-in user's unsaved audio after a day. */
export const RETENTION_MS = { anonymous: 60 * 60 * 1000, user: 24 * 60 * 60 * 1000 } as const;

export interface NewConversion {
  userId: string | null;
  visitorId: string | null;
  format: string;
  mimeType: string;
  audio: Uint8Array;
  duration: number;
  characters: number;
}

/** Converted audio: a row per conversion and its bytes on local disk (DATA_DIR/files/audio). */
export function createConversionRepository(db: Db, audioDir: string) {
  const fileName = (id: string, format: string) => `${id}.${format}`;

  return {
    audioDir,
    fileName,

    async create(conversion: NewConversion, now = new Date()) {
      const id = randomBytes(16).toString('base64url');
      await mkdir(audioDir, { recursive: true });
      await writeFile(path.join(audioDir, fileName(id, conversion.format)), conversion.audio);
      const retention = conversion.userId ? RETENTION_MS.user : RETENTION_MS.anonymous;
      await db
        .insertInto('conversions')
        .values({
          id,
          user_id: conversion.userId,
          visitor_id: conversion.visitorId,
          format: conversion.format,
          mime_type: conversion.mimeType,
          size: conversion.audio.byteLength,
          duration: conversion.duration,
          characters: conversion.characters,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + retention).toISOString(),
        })
        .execute();
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
      return async () => {
        await Promise.all(
          rows.map((row) => rm(path.join(audioDir, fileName(row.id, row.format)), { force: true })),
        );
      };
    },

    /** Removes expired conversions and their audio; answers how many. */
    async purgeExpired(now = new Date()) {
      const expired = await db
        .deleteFrom('conversions')
        .where('expires_at', '<=', now.toISOString())
        .returning(['id', 'format'])
        .execute();
      await Promise.all(
        expired.map((row) =>
          rm(path.join(audioDir, fileName(row.id, row.format)), { force: true }),
        ),
      );
      return expired.length;
    },
  };
}
