import {
  type AdminAvailableVoices,
  AdminAvailableVoicesSchema,
  type AdminLanguageInput,
  type AdminVoiceCatalogue,
  AdminVoiceCatalogueSchema,
  type AdminVoiceInput,
  type AdminVoiceInstallState,
  AdminVoiceInstallStateSchema,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The console's Voices calls (/api/admin/voices, docs/api.md "Operator console API"). */

export const voiceCatalogueQueryOptions = queryOptions({
  queryKey: ['admin', 'voices', 'catalogue'],
  queryFn: ({ signal }): Promise<AdminVoiceCatalogue> =>
    api.get('/admin/voices', { schema: AdminVoiceCatalogueSchema, signal }),
});

export const availableVoicesQueryOptions = queryOptions({
  queryKey: ['admin', 'voices', 'available'],
  queryFn: ({ signal }): Promise<AdminAvailableVoices> =>
    api.get('/admin/voices/available', { schema: AdminAvailableVoicesSchema, signal }),
});

/** This server's install, asked again every second while one runs (the progress bar). */
export const installQueryOptions = queryOptions({
  queryKey: ['admin', 'voices', 'install'],
  queryFn: ({ signal }): Promise<AdminVoiceInstallState> =>
    api.get('/admin/voices/install', { schema: AdminVoiceInstallStateSchema, signal }),
  refetchInterval: (query) => (query.state.data?.state === 'installing' ? 1000 : false),
});

/** What the Voices page can change; each answer is the catalogue as it now is. */
export type VoiceChange =
  | { kind: 'voice'; input: AdminVoiceInput }
  | { kind: 'language'; input: AdminLanguageInput }
  | { kind: 'remove'; name: string };

function runChange(change: VoiceChange): Promise<AdminVoiceCatalogue> {
  const schema = AdminVoiceCatalogueSchema;
  switch (change.kind) {
    case 'voice':
      return api.put('/admin/voices/voice', change.input, { schema });
    case 'language':
      return api.put('/admin/voices/language', change.input, { schema });
    case 'remove':
      return api.delete(`/admin/voices/installed/${encodeURIComponent(change.name)}`, { schema });
  }
}

export function useVoiceChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runChange,
    onSuccess: (catalogue) =>
      queryClient.setQueryData(voiceCatalogueQueryOptions.queryKey, catalogue),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** Starts (a name) or cancels (null) this server's install. */
export function useInstall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string | null) =>
      name === null
        ? api.delete('/admin/voices/install', { schema: AdminVoiceInstallStateSchema })
        : api.post('/admin/voices/install', { name }, { schema: AdminVoiceInstallStateSchema }),
    onSuccess: (state) => queryClient.setQueryData(installQueryOptions.queryKey, state),
  });
}
