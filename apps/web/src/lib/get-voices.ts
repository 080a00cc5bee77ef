import { type VoicesResponse, VoicesResponseSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** GET /convertor/voices (SPEC §7): languages with their voices, engines and capabilities. */
export function getVoices(signal?: AbortSignal): Promise<VoicesResponse> {
  return api.get('/convertor/voices', { schema: VoicesResponseSchema, signal });
}

export function voicesQueryOptions() {
  return queryOptions({
    queryKey: ['convertor', 'voices'],
    queryFn: ({ signal }) => getVoices(signal),
    staleTime: 5 * 60_000,
  });
}

export function useVoices() {
  return useQuery(voicesQueryOptions());
}
