import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where the bytes of saved files live. The local disk (DATA_DIR/files/saved) by default; an
 * S3-compatible store is the scale-out counterpart (ARCHITECTURE.md). Keys are opaque
 * `{directory}/{name}` strings made by the file feature.
 */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or undefined when the key holds nothing. */
  get(key: string): Promise<Buffer | undefined>;
  remove(key: string): Promise<void>;
  /** Every stored key with its last write time (for the orphan sweep). */
  list(): Promise<Array<{ key: string; modifiedAt: Date }>>;
}

const KEY = /^[\w-]+\/[\w.-]+$/;

function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Bad storage key: ${key}`);
  return key;
}

export function createLocalFileStorage(root: string): FileStorage {
  const full = (key: string) => path.join(root, checkKey(key));
  return {
    async put(key, bytes) {
      const target = full(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    },
    async get(key) {
      try {
        return await readFile(full(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async remove(key) {
      await rm(full(key), { force: true });
    },
    async list() {
      const keys: Array<{ key: string; modifiedAt: Date }> = [];
      let directories: string[];
      try {
        directories = await readdir(root);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return keys;
        throw error;
      }
      for (const directory of directories) {
        let names: string[];
        try {
          names = await readdir(path.join(root, directory));
        } catch {
          continue;
        }
        for (const name of names) {
          const key = `${directory}/${name}`;
          if (!KEY.test(key)) continue;
          const info = await stat(path.join(root, key)).catch(() => undefined);
          if (info?.isFile()) keys.push({ key, modifiedAt: info.mtime });
        }
      }
      return keys;
    },
  };
}
