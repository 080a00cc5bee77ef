import { type PlanInfo, PlanInfoSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /plan/info (SPEC §7): prices and allowances of every plan; no token needed. */
export function getPlanInfo(signal?: AbortSignal): Promise<PlanInfo> {
  return api.get('/plan/info', { schema: PlanInfoSchema, signal });
}

export function planInfoQueryOptions() {
  return queryOptions({
    queryKey: ['plan', 'info'],
    queryFn: ({ signal }) => getPlanInfo(signal),
    staleTime: 5 * 60_000,
  });
}

export function usePlanInfo() {
  return useQuery(planInfoQueryOptions());
}
