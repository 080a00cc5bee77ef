import {
  MESSAGES,
  type MessageResponse,
  MessageResponseSchema,
  type RegisterInput,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /auth/register (SPEC §7). A failure carries the server's message or 'Failed register!'. */
export function register(input: RegisterInput): Promise<MessageResponse> {
  return api.post('/auth/register', input, {
    schema: MessageResponseSchema,
    fallbackMessage: MESSAGES.auth.registerFailed,
  });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
