import { FileListSchema, type SavedFileList } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const FILES_QUERY_KEY = ['file', 'list'] as const;

/** GET /file (SPEC §7): the user's saved files. */
export function getFiles(signal?: AbortSignal): Promise<SavedFileList> {
  return api.get('/file', { schema: FileListSchema, signal });
}

export function filesQueryOptions() {
  return queryOptions({
    queryKey: FILES_QUERY_KEY,
    queryFn: ({ signal }) => getFiles(signal),
    retry: false,
  });
}

export function useFiles() {
  return useQuery(filesQueryOptions());
}
