import { VoicesResponseSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface VoiceCounts {
  voices: number;
  languages: number;
}

/**
 * GET /convertor/voices, reduced to what the plan cards say: how many voices and languages
 * the product really has (never a claimed number).
 */
export async function getVoiceCounts(signal?: AbortSignal): Promise<VoiceCounts> {
  const languages = await api.get('/convertor/voices', { schema: VoicesResponseSchema, signal });
  return {
    languages: languages.length,
    voices: languages.reduce((sum, language) => sum + language.voices.length, 0),
  };
}

export function useVoiceCounts() {
  return useQuery(
    queryOptions({
      queryKey: ['plan', 'voice-counts'],
      queryFn: ({ signal }) => getVoiceCounts(signal),
      staleTime: 5 * 60_000,
    }),
  );
}
