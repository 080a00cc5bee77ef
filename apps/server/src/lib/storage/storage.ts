import type { Readable } from 'node:stream';

/**
 * Where everything a server writes for later lives: converted audio (`audio/…`) and the bytes
 * of saved files (`saved/…`). The local disk under DATA_DIR/files by default; an S3-compatible
 * bucket when several servers share the installation (docs/decisions/017-object-storage.md).
 * Keys are `/`-separated names of letters, digits, `_`, `-` and `.`, never `..`.
 */
export interface ObjectStorage {
  /** `local` or `s3`, for logs and /api/ready. */
  readonly kind: 'local' | 's3';
  put(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
  /**
   * Stores what `stream` yields, exactly `length` bytes, without holding them in memory (an
   * audiobook of hours); a reader sees the whole object or none.
   */
  putStream(key: string, stream: Readable, length: number, contentType?: string): Promise<void>;
  /** Size and last write time, or undefined when the key holds nothing. */
  stat(key: string): Promise<StoredObject | undefined>;
  /**
   * A stream of the bytes `start`..`end` (inclusive, as in an HTTP Range) or of all of them;
   * undefined when the key holds nothing.
   */
  read(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** Removes the key; nothing happens when it holds nothing. */
  remove(key: string): Promise<void>;
  /** Every key under a folder (`audio`, `saved`) with its last write time. */
  list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date }>>;
  /** Throws when the storage cannot be written or read (for /api/ready). */
  check(): Promise<void>;
  /** Releases connections (the S3 client's sockets). */
  close(): void;
}

export interface StoredObject {
  size: number;
  modifiedAt: Date;
}

export interface ByteRange {
  start: number;
  end: number;
}

const KEY = /^([\w-]+\/)*[\w-][\w.-]*$/;

export function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`Bad storage key: ${key}`);
  return key;
}

/** The same storage seen under one folder: keys given and listed are relative to `prefix`. */
export function within(storage: ObjectStorage, prefix: string): ObjectStorage {
  const full = (key: string) => `${prefix}/${key}`;
  return {
    kind: storage.kind,
    put: (key, bytes, contentType) => storage.put(full(key), bytes, contentType),
    putStream: (key, stream, length, contentType) =>
      storage.putStream(full(key), stream, length, contentType),
    stat: (key) => storage.stat(full(key)),
    read: (key, range) => storage.read(full(key), range),
    remove: (key) => storage.remove(full(key)),
    // '' lists the whole folder.
    list: async (sub) =>
      (await storage.list(sub ? full(sub) : prefix)).map((entry) => ({
        ...entry,
        key: entry.key.slice(prefix.length + 1),
      })),
    check: () => storage.check(),
    close: () => storage.close(),
  };
}
