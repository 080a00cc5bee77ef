import { DELAYS_MS } from '@parla/contract';

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
