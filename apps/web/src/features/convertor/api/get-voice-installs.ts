import { ReadyVoicesSchema, type VoiceInstall } from '@parla/contract';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../../lib/api-client';
import { voicesQueryOptions } from '../../../lib/get-voices';

/**
 * GET /ready's `voices.installing` (issue 29): the natural voices the server is installing at
 * its first start. Empty when it installs none.
 */
export async function getVoiceInstalls(signal?: AbortSignal): Promise<VoiceInstall[]> {
  const ready = await api.get('/ready', { schema: ReadyVoicesSchema, signal });
  return ready.voices?.installing ?? [];
}

/** Asked again every few seconds while something is being installed. */
export function voiceInstallsQueryOptions() {
  return queryOptions({
    queryKey: ['convertor', 'voice-installs'],
    queryFn: ({ signal }) => getVoiceInstalls(signal),
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? 3000 : false),
    retry: false,
  });
}

/**
 * The installs under way, asked only while `enabled` (the picker is open on a catalogue with no
 * natural voice). When they end, the voice list is asked again: the new voices show at once.
 */
export function useVoiceInstalls(enabled: boolean): VoiceInstall[] {
  const queryClient = useQueryClient();
  const installs = useQuery({ ...voiceInstallsQueryOptions(), enabled });
  const data = installs.data ?? [];
  const wasInstalling = useRef(false);
  useEffect(() => {
    if (data.length > 0) wasInstalling.current = true;
    else if (wasInstalling.current) {
      wasInstalling.current = false;
      void queryClient.invalidateQueries({ queryKey: voicesQueryOptions().queryKey });
    }
  }, [data.length, queryClient]);
  return data;
}
