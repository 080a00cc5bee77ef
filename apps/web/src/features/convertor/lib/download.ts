import type { Profile } from '@parla/contract';

/** SPEC §6: who may download. Anonymous: no; role USER on FREE: no; other roles or paid plans: yes. */
export type DownloadRight = 'anonymous' | 'needs-plan' | 'allowed';

export function downloadRight(profile: Profile | undefined): DownloadRight {
  if (!profile) return 'anonymous';
  if (profile.user.role === 'USER' && profile.plan.type === 'FREE') return 'needs-plan';
  return 'allowed';
}

export { saveBlob } from '../../../lib/save-blob';
