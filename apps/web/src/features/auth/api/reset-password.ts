import {
  MESSAGES,
  type MessageResponse,
  MessageResponseSchema,
  type ResetPasswordInput,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface ResetPasswordVariables extends ResetPasswordInput {
  /** The key of the reset link (/auth/reset-password/{key}). */
  key: string;
}

/**
 * PUT /auth/reset_password/{key} (SPEC §7). A failure carries the server's message or
 * 'Failed change password!'.
 */
export function resetPassword({ key, password }: ResetPasswordVariables): Promise<MessageResponse> {
  return api.put(
    `/auth/reset_password/${encodeURIComponent(key)}`,
    { password },
    { schema: MessageResponseSchema, fallbackMessage: MESSAGES.auth.resetPasswordFailed },
  );
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
