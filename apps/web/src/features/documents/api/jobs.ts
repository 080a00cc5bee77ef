import { type DocumentPreview, DocumentPreviewSchema, JobCreatedSchema } from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { JOBS_KEY } from '../../../lib/jobs';

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
