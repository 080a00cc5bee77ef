import { FileSchema, type SavedFile } from '@parla/contract';
import { api } from '../../../lib/api-client';

/** GET /file/{id} (SPEC §7): one saved file's metadata and settings. */
export function getFile(id: string, signal?: AbortSignal): Promise<SavedFile> {
  return api.get(`/file/${encodeURIComponent(id)}`, { schema: FileSchema, signal });
}
