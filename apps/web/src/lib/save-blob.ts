import { DELAYS_MS } from '@parla/contract';
import { api } from './api-client';

/** Saves a blob under a name; the temporary address is revoked after 40 s (SPEC §9). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), DELAYS_MS.downloadRevoke);
}

/** Saves a file the API answers (an invoice's PDF) under `name`, with the session's token. */
export async function saveApiFile(path: string, name: string): Promise<void> {
  saveBlob(await api.get<Blob>(path, { responseType: 'blob' }), name);
}
