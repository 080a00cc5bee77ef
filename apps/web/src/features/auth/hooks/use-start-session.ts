import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { PROFILE_QUERY_KEY, saveToken } from '../../../lib/auth';

/**
 * Keeps a new session after a login or an email validation: the token cookie lives until
 * expire_date (SPEC §3), and the profile is fetched again so the header shows the user.
 */
export function useStartSession(): (session: { token: string; expire_date: string }) => void {
  const queryClient = useQueryClient();
  return useCallback(
    ({ token, expire_date }) => {
      saveToken(token, expire_date);
      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY });
    },
    [queryClient],
  );
}
