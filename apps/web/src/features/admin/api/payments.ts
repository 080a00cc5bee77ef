import {
  type AdminPaymentDetail,
  AdminPaymentDetailSchema,
  type AdminPaymentList,
  AdminPaymentListSchema,
  type AdminPaymentStatus,
  type AdminRefundInput,
  IDEMPOTENCY_KEY_HEADER,
} from '@parla/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The console's payments (/api/admin/payments, docs/api.md "Operator console API"). */

export interface PaymentFilters {
  email: string;
  status: AdminPaymentStatus | undefined;
  /** YYYY-MM-DD, or '' for no bound. */
  from: string;
  to: string;
}

const paymentPath = (id: string) => `/admin/payments/${encodeURIComponent(id)}`;

export function paymentsQueryOptions(filters: PaymentFilters, page: number) {
  return queryOptions({
    queryKey: ['admin', 'payments', filters, page],
    queryFn: ({ signal }): Promise<AdminPaymentList> =>
      api.get('/admin/payments', {
        query: {
          email: filters.email,
          status: filters.status,
          from: filters.from || undefined,
          to: filters.to || undefined,
          page,
        },
        schema: AdminPaymentListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function paymentQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['admin', 'payment', id],
    queryFn: ({ signal }): Promise<AdminPaymentDetail> =>
      api.get(paymentPath(id), { schema: AdminPaymentDetailSchema, signal }),
  });
}

/**
 * A refund; `key` is one per refund the operator confirms (kept if the answer is lost and the
 * operator tries again), so the server never refunds twice for one.
 */
export function useRefund(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: AdminRefundInput; key: string }) =>
      api.post(`${paymentPath(id)}/refunds`, input, {
        schema: AdminPaymentDetailSchema,
        headers: { [IDEMPOTENCY_KEY_HEADER]: key },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export const invoicePdfPath = (id: string) => `${paymentPath(id)}/invoice.pdf`;
