import { type ValidateEmailResponse, ValidateEmailResponseSchema } from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/**
 * GET /auth/validate_email_address/{key} (SPEC §7): confirms the address and answers a session.
 * The key is single-use, so this is a mutation the page fires once, never a cached query.
 */
export function validateEmailAddress(key: string): Promise<ValidateEmailResponse> {
  return api.get(`/auth/validate_email_address/${encodeURIComponent(key)}`, {
    schema: ValidateEmailResponseSchema,
  });
}

export function useValidateEmailAddress() {
  return useMutation({ mutationFn: validateEmailAddress });
}
