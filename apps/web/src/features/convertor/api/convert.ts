import { type ConvertResult, ConvertResultSchema, type VoiceSettings } from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client';
import { PROFILE_QUERY_KEY } from '../../../lib/auth';

/**
 * POST /convertor (SPEC §7), streamed (issue 14): the answer comes with the first bytes of the
 * audio, whose address plays while the rest is rendered. Every failure, HTTP error or
 * `success: false`, becomes an error carrying the message the alert shows (SPEC §8 "Convert
 * failure"). `stream` false: the whole audio first, with its duration (a short preview).
 */
export async function convert(settings: VoiceSettings, stream = true): Promise<ConvertResult> {
  const result = await api.post('/convertor', settings, {
    schema: ConvertResultSchema,
    ...(stream && { query: { stream: true } }),
  });
  if (!result.success || !result.path) throw new ApiError(result.message, 200);
  return result;
}

export function useConvert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: VoiceSettings) => convert(settings),
    // The allowance shown by the counter is the profile's.
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
  });
}
