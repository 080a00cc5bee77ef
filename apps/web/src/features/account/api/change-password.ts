import {
  type ChangePasswordInput,
  type ValidateEmailResponse,
  ValidateEmailResponseSchema,
} from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { profileQueryOptions, saveToken } from '../../../lib/auth';
import { getToken } from '../../../lib/auth-token';

/**
 * PUT /account/change_password (SPEC §7). The answer is a new session ({token, expire_date},
 * the shape email validation answers): the server refuses tokens issued before the change.
 */
export function changePassword(input: ChangePasswordInput): Promise<ValidateEmailResponse> {
  return api.put('/account/change_password', input, { schema: ValidateEmailResponseSchema });
}

/** Changes the password and swaps the token cookie for the new session, so the user stays in. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: ({ token, expire_date }) => {
      // The profile is keyed by token: carry it over, so nothing shows "loading" for a user
      // who never left.
      const previous = queryClient.getQueryData(profileQueryOptions(getToken()).queryKey);
      if (previous) queryClient.setQueryData(profileQueryOptions(token).queryKey, previous);
      saveToken(token, expire_date);
    },
  });
}
