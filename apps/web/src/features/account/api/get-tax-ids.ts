import { type TaxIdList, TaxIdListSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /account/tax_ids (SPEC §7): the tax id types per country; they change with releases only. */
export function getTaxIds(signal?: AbortSignal): Promise<TaxIdList> {
  return api.get('/account/tax_ids', { schema: TaxIdListSchema, signal });
}

export function taxIdsQueryOptions() {
  return queryOptions({
    queryKey: ['account', 'tax-ids'],
    queryFn: ({ signal }) => getTaxIds(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useTaxIds() {
  return useQuery(taxIdsQueryOptions());
}
