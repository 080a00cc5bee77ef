import { type SpeechMark, SpeechMarksSchema } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api } from './api-client';

/** The speech marks of a conversion (GET its `marks_path`), kept as long as the page. */
export function useSpeechMarks(path: string | null | undefined) {
  return useQuery<SpeechMark[]>({
    queryKey: ['convertor', 'marks', path],
    queryFn: ({ signal }) => api.get(path ?? '', { schema: SpeechMarksSchema, signal }),
    enabled: Boolean(path),
    staleTime: Number.POSITIVE_INFINITY,
    // A streamed conversion's record is written a moment after its audio ends.
    retry: (failures, error) => failures < 3 && error instanceof ApiError && error.status === 404,
    retryDelay: 300,
  });
}

/** Subtitles of a conversion as a file (WebVTT, or SRT), for download. */
export function getSubtitles(path: string, format: 'vtt' | 'srt'): Promise<Blob> {
  return api.get<Blob>(path, { query: { format }, responseType: 'blob' });
}
