import {
  type InvoiceInfoInput,
  type MessageResponse,
  MessageResponseSchema,
} from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { PROFILE_QUERY_KEY } from '../../../lib/auth';

/** PUT /account/invoice_info (SPEC §7); optional fields travel as null. */
export function updateInvoiceInfo(input: InvoiceInfoInput): Promise<MessageResponse> {
  return api.put('/account/invoice_info', input, { schema: MessageResponseSchema });
}

export function useUpdateInvoiceInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInvoiceInfo,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY }),
  });
}
