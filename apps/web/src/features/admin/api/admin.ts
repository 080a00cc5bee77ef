import {
  type AdminAuditList,
  AdminAuditListSchema,
  type AdminCharactersInput,
  type AdminContactMessageList,
  AdminContactMessageListSchema,
  AdminContactMessageSchema,
  type AdminMessageQuery,
  type AdminPlanInput,
  type AdminUserDetail,
  AdminUserDetailSchema,
  type AdminUserList,
  AdminUserListSchema,
  AdminUserSchema,
  type ContactMessageStatus,
  MessageResponseSchema,
  type Role,
} from '@parla/contract';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The operator console's calls (/api/admin, docs/api.md "Operator console API"). */

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export function usersQueryOptions(query: string, page: number) {
  return queryOptions({
    queryKey: ['admin', 'users', query, page],
    queryFn: ({ signal }): Promise<AdminUserList> =>
      api.get('/admin/users', { query: { query, page }, schema: AdminUserListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['admin', 'user', id],
    queryFn: ({ signal }): Promise<AdminUserDetail> =>
      api.get(userPath(id), { schema: AdminUserDetailSchema, signal }),
  });
}

export function messagesQueryOptions(status: AdminMessageQuery['status'], page: number) {
  return queryOptions({
    queryKey: ['admin', 'messages', status ?? 'all', page],
    queryFn: ({ signal }): Promise<AdminContactMessageList> =>
      api.get('/admin/messages', {
        query: { status, page },
        schema: AdminContactMessageListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function auditQueryOptions(page: number) {
  return queryOptions({
    queryKey: ['admin', 'audit', page],
    queryFn: ({ signal }): Promise<AdminAuditList> =>
      api.get('/admin/audit', { query: { page }, schema: AdminAuditListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

/** What the console can do to a user; every action refreshes what the console shows. */
export type UserAction =
  | { kind: 'characters'; input: AdminCharactersInput }
  | { kind: 'plan'; input: AdminPlanInput }
  | { kind: 'role'; role: Role }
  | { kind: 'disable' }
  | { kind: 'enable' }
  | { kind: 'validation-mail' }
  | { kind: 'delete' };

function runAction(id: string, action: UserAction): Promise<unknown> {
  switch (action.kind) {
    case 'characters':
      return api.post(`${userPath(id)}/characters`, action.input, { schema: AdminUserSchema });
    case 'plan':
      return api.put(`${userPath(id)}/plan`, action.input, { schema: AdminUserSchema });
    case 'role':
      return api.put(`${userPath(id)}/role`, { role: action.role }, { schema: AdminUserSchema });
    case 'disable':
    case 'enable':
      return api.post(`${userPath(id)}/${action.kind}`, undefined, { schema: AdminUserSchema });
    case 'validation-mail':
      return api.post(`${userPath(id)}/validation-mail`, undefined, {
        schema: MessageResponseSchema,
      });
    case 'delete':
      return api.delete(userPath(id), { schema: MessageResponseSchema });
  }
}

export function useUserAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) => runAction(id, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useMessageStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ContactMessageStatus }) =>
      api.put(
        `/admin/messages/${encodeURIComponent(id)}`,
        { status },
        { schema: AdminContactMessageSchema },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
