import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { checkKey, type ObjectStorage } from './storage.js';

/**
 * Bytes read at a time when an object is served: a 20 MB WAV in 80 reads rather than 320 of
 * Node's default 64 KiB, each one a turn of the event loop and a write to the socket (issue 34:
 * 27-76 ms to serve a 21 MB file to curl, against 52-97 ms; docs/decisions/058).
 */
const READ_CHUNK_BYTES = 256 * 1024;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Objects as files under `root` (DATA_DIR/files): the embedded default. */
export function createLocalStorage(root: string): ObjectStorage {
  const full = (key: string) => path.join(root, checkKey(key));
  /** Writes then renames: a reader never sees half a file. Answers the bytes written. */
  async function write(key: string, body: Uint8Array | Readable): Promise<number> {
    const target = full(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      await writeFile(temporary, body);
      const { size } = await stat(temporary);
      await rename(temporary, target);
      return size;
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
  return {
    kind: 'local',
    async put(key, bytes) {
      await write(key, bytes);
    },
    async putStream(key, stream, length) {
      const written = await write(key, stream);
      if (written !== length) {
        await rm(full(key), { force: true });
        throw new Error(`${key}: ${written} bytes written, ${length} announced`);
      }
    },
    async stat(key) {
      try {
        const info = await stat(full(key));
        return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async read(key, range) {
      const stream = createReadStream(full(key), { ...range, highWaterMark: READ_CHUNK_BYTES });
      // Opening fails asynchronously: wait for it, so a missing file answers undefined.
      return new Promise((resolve, reject) => {
        stream.once('open', () => resolve(stream));
        stream.once('error', (error) => (isMissing(error) ? resolve(undefined) : reject(error)));
      });
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
    async list(prefix) {
      const directory = path.join(root, checkKey(prefix));
      let entries: string[];
      try {
        entries = await readdir(directory, { recursive: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const found: Array<{ key: string; modifiedAt: Date }> = [];
      for (const entry of entries) {
        const key = `${prefix}/${entry.split(path.sep).join('/')}`;
        const info = await stat(path.join(directory, entry)).catch(() => undefined);
        if (info?.isFile()) found.push({ key, modifiedAt: info.mtime });
      }
      return found;
    },
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.R_OK | constants.W_OK);
    },
    close() {},
  };
}
