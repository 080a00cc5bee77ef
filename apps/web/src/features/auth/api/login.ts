import {
  type LoginInput,
  type LoginResponse,
  LoginResponseSchema,
  MESSAGES,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /auth/login (SPEC §7). A failure carries the server's message or 'Failed login!'. */
export function login(input: LoginInput): Promise<LoginResponse> {
  return api.post('/auth/login', input, {
    schema: LoginResponseSchema,
    fallbackMessage: MESSAGES.auth.loginFailed,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
