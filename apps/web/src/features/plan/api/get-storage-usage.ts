import { type StorageUsage, StorageUsageSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /file/usage: bytes the saved files use and the plan's storage quota (My Plan). */
export function getStorageUsage(signal?: AbortSignal): Promise<StorageUsage> {
  return api.get('/file/usage', { schema: StorageUsageSchema, signal });
}

export function useStorageUsage() {
  return useQuery(
    queryOptions({
      queryKey: ['file', 'usage'],
      queryFn: ({ signal }) => getStorageUsage(signal),
    }),
  );
}
