import {
  type ChangeEmailInput,
  type MessageResponse,
  MessageResponseSchema,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * PUT /account/change_email (SPEC §7). The server mails a link to the new address and uses it
 * once that link is opened; its answer says so.
 */
export function changeEmail(input: ChangeEmailInput): Promise<MessageResponse> {
  return api.put('/account/change_email', input, { schema: MessageResponseSchema });
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
