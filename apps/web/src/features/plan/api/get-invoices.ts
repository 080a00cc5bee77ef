import { type InvoiceList, InvoiceListSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /plan/invoices: the user's invoices, newest first, with what was refunded (My Plan). */
export function useInvoices() {
  return useQuery(
    queryOptions({
      queryKey: ['plan', 'invoices'],
      queryFn: ({ signal }): Promise<InvoiceList> =>
        api.get('/plan/invoices', { schema: InvoiceListSchema, signal }),
    }),
  );
}
