import { api } from '../../../lib/api-client';

/** GET /file/media/{id} (SPEC §7): the saved audio as a blob. */
export function getFileMedia(id: string, signal?: AbortSignal): Promise<Blob> {
  return api.get<Blob>(`/file/media/${encodeURIComponent(id)}`, { responseType: 'blob', signal });
}
