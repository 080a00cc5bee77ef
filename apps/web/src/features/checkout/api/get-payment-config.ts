import { type PaymentConfig, PaymentConfigSchema } from '@parla/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /plan/payment/config: Stripe (with its publishable key) or the built-in test provider. */
export function getPaymentConfig(signal?: AbortSignal): Promise<PaymentConfig> {
  return api.get('/plan/payment/config', { schema: PaymentConfigSchema, signal });
}

export function usePaymentConfig() {
  return useQuery(
    queryOptions({
      queryKey: ['plan', 'payment-config'],
      queryFn: ({ signal }) => getPaymentConfig(signal),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  );
}
