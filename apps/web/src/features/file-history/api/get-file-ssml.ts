import { api } from '../../../lib/api-client';

/** GET /file/ssml/{id} (SPEC §7): the SSML the file was made from. */
export function getFileSsml(id: string, signal?: AbortSignal): Promise<string> {
  return api.get<string>(`/file/ssml/${encodeURIComponent(id)}`, { responseType: 'text', signal });
}
