import { type PlanInfo, PlanInfoSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * GET /plan/info (SPEC §7) for the checkout's plan, subtotal and total. Features do not import
 * each other (CONVENTIONS §2); this shares its query key with the plan feature's, so the
 * answer is fetched once.
 */
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
