import {
  type ApiKey,
  ApiKeysSchema,
  type CreatedApiKey,
  CreatedApiKeySchema,
  MessageResponseSchema,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /account/api_keys (issue 16). */
export function apiKeysQueryOptions(token: string | undefined) {
  return queryOptions({
    queryKey: ['api-keys', token],
    queryFn: (): Promise<ApiKey[]> => api.get('/account/api_keys', { schema: ApiKeysSchema }),
    enabled: Boolean(token),
  });
}

/** POST /account/api_keys: the answer holds the key, shown this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string): Promise<CreatedApiKey> =>
      api.post('/account/api_keys', { name }, { schema: CreatedApiKeySchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}

/** DELETE /account/api_keys/{id}. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete(`/account/api_keys/${encodeURIComponent(id)}`, { schema: MessageResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
