import {
  type AdminPlanList,
  AdminPlanListSchema,
  type AdminPlanTermsInput,
  type PlanType,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { planInfoQueryOptions } from '../../../lib/plan-info';

/** The console's Plans calls (/api/admin/plans, decision 055). */

export const planListQueryOptions = queryOptions({
  queryKey: ['admin', 'plans'],
  queryFn: ({ signal }): Promise<AdminPlanList> =>
    api.get('/admin/plans', { schema: AdminPlanListSchema, signal }),
});

/** Replaces one plan's terms; the answer is every plan as it now is. */
export function usePlanChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, terms }: { type: PlanType; terms: AdminPlanTermsInput }) =>
      api.put(`/admin/plans/${type}`, terms, { schema: AdminPlanListSchema }),
    onSuccess: (list) => queryClient.setQueryData(planListQueryOptions.queryKey, list),
    // The pricing page and My Plan of this tab show the new terms too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: planInfoQueryOptions().queryKey }),
  });
}
