import { type PlanInfo, PlanInfoSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * GET /plan/info (SPEC §7): prices and allowances of every plan; no token needed. Shared by the
 * pricing, My Plan, checkout and convertor features (the FREE limits apply to anonymous
 * visitors), fetched once under one query key.
 */
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
