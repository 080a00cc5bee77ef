import {
  type MessageResponse,
  MessageResponseSchema,
  type Profile,
  ProfileSchema,
  TOKEN_COOKIE,
} from '@parla/contract';
import { type QueryClient, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { api } from './api-client';
import { getToken } from './auth-token';
import { deleteCookie, setCookie } from './cookies';

/**
 * The signed-in state (SPEC §4): a token cookie AND a successful GET /account/profile. Without
 * the cookie no call is made; a failed call (401 included) means signed out. Shared by the
 * header and every feature that needs the user, hence here and not in a feature folder
 * (bulletproof-react keeps its `lib/auth` the same way).
 */

const tokenListeners = new Set<() => void>();

function notifyTokenChange(): void {
  for (const listener of tokenListeners) listener();
}

function subscribeToToken(listener: () => void): () => void {
  tokenListeners.add(listener);
  // Another tab may have logged in or out: look again when this one comes back.
  window.addEventListener('focus', listener);
  return () => {
    tokenListeners.delete(listener);
    window.removeEventListener('focus', listener);
  };
}

/** The token cookie, re-read whenever it is saved or cleared through this module. */
export function useToken(): string | undefined {
  return useSyncExternalStore(subscribeToToken, getToken, () => undefined);
}

/** Keeps the token from a login or an email validation until its expiry date (SPEC §3). */
export function saveToken(token: string, expireDate: Date | string | number): void {
  setCookie(TOKEN_COOKIE, token, new Date(expireDate));
  notifyTokenChange();
}

export const PROFILE_QUERY_KEY = ['account', 'profile'] as const;

export function getProfile(signal?: AbortSignal): Promise<Profile> {
  return api.get('/account/profile', { schema: ProfileSchema, signal });
}

export function profileQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: [...PROFILE_QUERY_KEY, token ?? null],
    queryFn: ({ signal }) => getProfile(signal),
    enabled: Boolean(token),
    retry: false,
    staleTime: 60_000,
  });
}

export type Session =
  | { status: 'loading'; profile?: undefined }
  | { status: 'signed-out'; profile?: undefined }
  | { status: 'signed-in'; profile: Profile };

export function useSession(): Session {
  const token = useToken();
  const query = useQuery(profileQueryOptions(token));
  if (!token || query.isError) return { status: 'signed-out' };
  if (query.data) return { status: 'signed-in', profile: query.data };
  return { status: 'loading' };
}

/** Forgets the token and the profile (after logout, or when the API answers 401). */
export function clearSession(queryClient: QueryClient): void {
  deleteCookie(TOKEN_COOKIE);
  notifyTokenChange();
  queryClient.removeQueries({ queryKey: PROFILE_QUERY_KEY });
}

/** POST /auth/logout: the server refuses this token from now on (issue 13 item 4). */
export function logout(): Promise<MessageResponse> {
  return api.post('/auth/logout', undefined, { schema: MessageResponseSchema });
}

/**
 * SPEC §4: logout deletes the token cookie and goes to /auth/login. The server ends the
 * session first (the call needs the token); the browser forgets it whatever the answer, so a
 * server out of reach never keeps anyone signed in here.
 */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout().catch(() => undefined);
    clearSession(queryClient);
    await navigate('/auth/login', { replace: true });
  }, [queryClient, navigate]);
}
