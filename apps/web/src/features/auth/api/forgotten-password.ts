import {
  type ForgottenPasswordInput,
  MESSAGES,
  type MessageResponse,
  MessageResponseSchema,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /auth/forgotten_password (SPEC §7): the same answer whether the address exists or not. */
export function forgottenPassword(input: ForgottenPasswordInput): Promise<MessageResponse> {
  return api.post('/auth/forgotten_password', input, {
    schema: MessageResponseSchema,
    fallbackMessage: MESSAGES.auth.forgottenPasswordFailed,
  });
}

export function useForgottenPassword() {
  return useMutation({ mutationFn: forgottenPassword });
}
