import { type PlanInfo, PlanInfoSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /plan/info (no token, SPEC §7): the FREE limits apply to anonymous visitors. */
export function getPlanInfo(signal?: AbortSignal): Promise<PlanInfo> {
  return api.get('/plan/info', { schema: PlanInfoSchema, signal });
}

export function usePlanInfo() {
  return useQuery(
    queryOptions({
      queryKey: ['plan', 'info'],
      queryFn: ({ signal }) => getPlanInfo(signal),
      staleTime: 5 * 60_000,
    }),
  );
}
