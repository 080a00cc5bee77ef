import {
  IDEMPOTENCY_KEY_HEADER,
  MESSAGES,
  type PaymentInput,
  type PaymentResult,
  PaymentResultSchema,
} from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PROFILE_QUERY_KEY } from '../../../lib/auth';

export interface PayVariables {
  payment: PaymentInput;
  isUpdateCard: boolean;
  /** One per attempt: a retry of the same attempt is never charged twice. */
  attemptId: string;
}

/** POST /plan/payment?is_update_card={bool} (SPEC §7). */
export function pay({ payment, isUpdateCard, attemptId }: PayVariables): Promise<PaymentResult> {
  return api.post('/plan/payment', payment, {
    query: { is_update_card: isUpdateCard },
    headers: { [IDEMPOTENCY_KEY_HEADER]: attemptId },
    schema: PaymentResultSchema,
    fallbackMessage: MESSAGES.checkout.paymentFailed,
  });
}

export function usePay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pay,
    // Plan, characters and saved card changed (or may have, for a pending payment).
    onSettled: () => queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
  });
}
