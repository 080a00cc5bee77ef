import { MESSAGES, type MessageResponse, MessageResponseSchema } from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** DELETE /account/delete (SPEC §7). */
export function deleteAccount(): Promise<MessageResponse> {
  return api.delete('/account/delete', {
    schema: MessageResponseSchema,
    fallbackMessage: MESSAGES.account.deleteFailed,
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
