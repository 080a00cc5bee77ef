import { api } from '../../../lib/api-client';

/** SPEC §7 "Audio track loading is a GET of a given address as binary data." */
export function getAudio(path: string, signal?: AbortSignal): Promise<Blob> {
  return api.get<Blob>(path, { responseType: 'blob', signal });
}
