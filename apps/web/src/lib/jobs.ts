import { type Job, JobDeletedSchema, JobListSchema } from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The user's jobs (issue 19), shared by the documents and file-history features: the list, a
 * job's files, and cancelling or deleting one. Starting a job stays with the documents feature.
 */
export const JOBS_KEY = ['jobs'];

/** A job still moving: queued or running. */
export const isActive = (job: Job) => job.status === 'queued' || job.status === 'running';

/** GET /jobs (issue 19): asked again every two seconds while a job is moving. */
export function jobsQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: [...JOBS_KEY, token],
    queryFn: ({ signal }): Promise<Job[]> => api.get('/jobs', { schema: JobListSchema, signal }),
    enabled: Boolean(token),
    refetchInterval: (query) => (query.state.data?.some(isActive) ? 2000 : false),
  });
}

/**
 * DELETE /jobs/{id}: cancels a job that is still moving (answers the job), deletes an ended
 * one with its audio (answers a message). The lists showing jobs are asked again.
 */
export function useDeleteJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete(`/jobs/${encodeURIComponent(id)}`, { schema: JobDeletedSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: JOBS_KEY }),
  });
}

/** A finished job's audio (or other file) as a blob: the routes need the user's token. */
export function getJobFile(path: string, signal?: AbortSignal): Promise<Blob> {
  return api.get<Blob>(path, { responseType: 'blob', signal });
}
