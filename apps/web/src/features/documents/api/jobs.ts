import {
  type DocumentPreview,
  DocumentPreviewSchema,
  type Job,
  JobCreatedSchema,
  JobDeletedSchema,
  JobListSchema,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const JOBS_KEY = ['jobs'];

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

/** POST /jobs/preview: the document's chapters and characters, nothing charged. */
export function usePreviewDocument() {
  return useMutation({
    mutationFn: (document: File): Promise<DocumentPreview> => {
      const body = new FormData();
      body.append('document', document);
      return api.post('/jobs/preview', body, { schema: DocumentPreviewSchema });
    },
  });
}

export interface StartJob {
  document: File;
  /** The chapters kept, in order, with their titles. */
  chapters: { index: number; title: string }[];
  settings: Record<string, string>;
}

/** POST /jobs with the document, the voice settings and the chapters chosen. */
export function useStartJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ document, chapters, settings }: StartJob) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(settings)) body.append(name, value);
      body.append('chapters', JSON.stringify(chapters));
      body.append('document', document);
      return api.post('/jobs', body, { schema: JobCreatedSchema });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: JOBS_KEY }),
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
