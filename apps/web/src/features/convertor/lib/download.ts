import { DELAYS_MS, type Profile } from '@parla/contract';

/** SPEC §6: who may download. Anonymous: no; role USER on FREE: no; other roles or paid plans: yes. */
export type DownloadRight = 'anonymous' | 'needs-plan' | 'allowed';

export function downloadRight(profile: Profile | undefined): DownloadRight {
  if (!profile) return 'anonymous';
  if (profile.user.role === 'USER' && profile.plan.type === 'FREE') return 'needs-plan';
  return 'allowed';
}

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
