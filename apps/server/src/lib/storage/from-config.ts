import type { StorageConfig } from '../../config.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import type { ObjectStorage } from './storage.js';

/** The installation's storage: S3 when S3_BUCKET is set, else DATA_DIR/files. */
export function createStorage(config: StorageConfig): ObjectStorage {
  return config.kind === 's3' ? createS3Storage(config) : createLocalStorage(config.root);
}

/** Where the installation's audio is, as people name it: `s3://bucket` (at an endpoint) or a folder. */
export function storageName(config: StorageConfig): string {
  if (config.kind === 'local') return config.root;
  return `s3://${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`;
}

/**
 * The Redis key under which the servers of an installation say where they keep audio, so a
 * `parla worker` that would write elsewhere refuses to start: its audio would never be found.
 */
export const storageNameKey = (prefix: string) => `${prefix}:storage`;
