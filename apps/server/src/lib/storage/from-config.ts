import type { StorageConfig } from '../../config.js';
import { createLocalStorage } from './local.js';
import { createS3Storage } from './s3.js';
import type { ObjectStorage } from './storage.js';

/** The installation's storage: S3 when S3_BUCKET is set, else DATA_DIR/files. */
export function createStorage(config: StorageConfig): ObjectStorage {
  return config.kind === 's3' ? createS3Storage(config) : createLocalStorage(config.root);
}
