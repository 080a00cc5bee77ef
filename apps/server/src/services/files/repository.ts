import { randomBytes, randomUUID } from 'node:crypto';
import {
  FILE_SNIPPET_LENGTH,
  type FileMediaQuery,
  SAVED_FILE_RETENTION_DAYS,
  type SavedFile,
  type VoiceEffect,
} from '@parla/contract';
import type { Db } from '../../db/database.js';
import type { SavedFileRow } from '../../db/schema.js';
import { marksKey } from '../../lib/marks.js';
import type { ObjectStorage } from '../../lib/storage/storage.js';
import type { ProbedAudio } from './audio-probe.js';

export const RETENTION_MS = SAVED_FILE_RETENTION_DAYS * 24 * 60 * 60 * 1000;
/** Bytes nobody names are removed only after this, so an upload in flight is never touched. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface FileMetadata {
  query: FileMediaQuery;
  /** Display names from the voice catalogue. */
  language: string;
  voice: string;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** The spoken words at the start of an SSML document: markup removed, spaces collapsed. */
export function snippetOf(ssml: string | null): string {
  if (!ssml) return '';
  const text = ssml
    // A pause or a paragraph separates words; other tags sit inside them.
    .replace(/<(break|p|s)\b[^>]*>|<\/(p|s)>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > FILE_SNIPPET_LENGTH ? `${text.slice(0, FILE_SNIPPET_LENGTH - 1)}…` : text;
}

export function toSavedFile(row: SavedFileRow): SavedFile {
  return {
    _id: row.id,
    size: row.size,
    length: row.length,
    language: row.language,
    voice: row.voice,
    updated_date: row.updated_at,
    engine: row.engine as SavedFile['engine'],
    language_code: row.language_code,
    voice_id: row.voice_id,
    audio_format: row.audio_format as SavedFile['audio_format'],
    audio_sample_rate: row.audio_sample_rate as SavedFile['audio_sample_rate'],
    effect: row.effect as VoiceEffect | null,
    output_format: row.audio_format as SavedFile['output_format'],
    sample_rate: row.audio_sample_rate as SavedFile['sample_rate'],
    master_speed: row.master_speed,
    master_volume: row.master_volume,
    master_pitch: row.master_pitch,
    snippet: snippetOf(row.ssml),
  };
}

/**
 * Saved files: the bytes in the storage, the rest in the database. Bytes are always stored
 * first under a new key and the row written after, so a crash in between leaves bytes that no
 * row names (swept later), never a listed file without audio. Every query is scoped to the
 * owner: another user's id is simply not found.
 */
export function createFileRepository(
  db: Db,
  /** The installation's storage seen under `saved/` (app.ts). */
  storage: ObjectStorage,
  now: () => Date = () => new Date(),
) {
  const newKey = (userId: string, fileId: string, format: string) =>
    `${userId}/${fileId}-${randomBytes(8).toString('hex')}.${format}`;

  const settings = (meta: FileMetadata) => ({
    language: meta.language,
    voice: meta.voice,
    engine: meta.query.engine,
    language_code: meta.query.language,
    voice_id: meta.query.voice,
    audio_format: meta.query.audio_format,
    audio_sample_rate: meta.query.audio_sample_rate,
    effect: meta.query.effect,
    master_speed: meta.query.master_speed,
    master_volume: meta.query.master_volume,
    master_pitch: meta.query.master_pitch,
  });

  const find = (userId: string, id: string) =>
    db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();

  /** Best effort: the sweep removes what this could not. The audio's marks go with it. */
  const discard = async (key: string) => {
    await storage.remove(key).catch(() => undefined);
    await storage.remove(marksKey(key)).catch(() => undefined);
  };

  return {
    find,

    list: (userId: string) =>
      db
        .selectFrom('files')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('updated_at', 'desc')
        .orderBy('id')
        .execute(),

    async create(userId: string, audio: Buffer, probed: ProbedAudio, meta: FileMetadata) {
      const id = randomUUID();
      const key = newKey(userId, id, probed.format);
      await storage.put(key, audio, probed.mimeType);
      const at = now().toISOString();
      try {
        return await db
          .insertInto('files')
          .values({
            id,
            user_id: userId,
            storage_key: key,
            mime_type: probed.mimeType,
            size: audio.byteLength,
            length: probed.length,
            ...settings(meta),
            ssml: null,
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        await discard(key);
        throw error;
      }
    },

    /** New audio and settings for an existing file; undefined when the user has no such file. */
    async replace(
      userId: string,
      id: string,
      audio: Buffer,
      probed: ProbedAudio,
      meta: FileMetadata,
    ) {
      const existing = await find(userId, id);
      if (!existing) return undefined;
      const key = newKey(userId, id, probed.format);
      await storage.put(key, audio, probed.mimeType);
      let updated: SavedFileRow | undefined;
      try {
        updated = await db
          .updateTable('files')
          .set({
            storage_key: key,
            mime_type: probed.mimeType,
            size: audio.byteLength,
            length: probed.length,
            ...settings(meta),
            updated_at: now().toISOString(),
          })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returningAll()
          .executeTakeFirst();
      } catch (error) {
        await discard(key);
        throw error;
      }
      // The old bytes go only once the row names the new ones.
      if (updated) await discard(existing.storage_key);
      else await discard(key);
      return updated;
    },

    /** Bytes of audio the user's saved files hold (their storage quota counts these). */
    async usedBytes(userId: string) {
      const row = await db
        .selectFrom('files')
        .select((eb) => eb.fn.sum<number | string | null>('size').as('total'))
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(row?.total ?? 0);
    },

    setSsml: (userId: string, id: string, ssml: string) =>
      db
        .updateTable('files')
        .set({ ssml, updated_at: now().toISOString() })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returningAll()
        .executeTakeFirst(),

    async remove(userId: string, id: string) {
      const removed = await db
        .deleteFrom('files')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .returning('storage_key')
        .executeTakeFirst();
      if (removed) await discard(removed.storage_key);
      return Boolean(removed);
    },

    /**
     * Deletes the rows of every file of a user (account deletion, inside its transaction) and
     * answers a function that removes their bytes, to call once the transaction committed.
     */
    async removeAll(userId: string) {
      const removed = await db
        .deleteFrom('files')
        .where('user_id', '=', userId)
        .returning('storage_key')
        .execute();
      return async () => {
        for (const row of removed) await discard(row.storage_key);
      };
    },

    /**
     * Deletes every file saved (or last re-saved) more than 30 days ago, row then bytes, and
     * sweeps bytes no row names (an interrupted upload, a deleted account). Answers how many
     * files went.
     */
    async purge() {
      const at = now();
      const cutoff = new Date(at.getTime() - RETENTION_MS).toISOString();
      const expired = await db
        .deleteFrom('files')
        .where('updated_at', '<=', cutoff)
        .returning('storage_key')
        .execute();
      for (const row of expired) await discard(row.storage_key);

      const stored = await storage.list('');
      const graceStart = at.getTime() - ORPHAN_GRACE_MS;
      const candidates = stored.filter((entry) => entry.modifiedAt.getTime() < graceStart);
      if (candidates.length > 0) {
        const named = new Set(
          (await db.selectFrom('files').select('storage_key').execute()).map((r) => r.storage_key),
        );
        // Speech marks are named by their audio's key (lib/marks.ts).
        const audioOf = (key: string) => key.replace(/\.marks\.json$/, '');
        for (const entry of candidates) {
          if (!named.has(audioOf(entry.key)))
            await storage.remove(entry.key).catch(() => undefined);
        }
      }
      return expired.length;
    },
  };
}

export type FileRepository = ReturnType<typeof createFileRepository>;
