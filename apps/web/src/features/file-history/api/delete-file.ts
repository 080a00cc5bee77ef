import { type MessageResponse, MessageResponseSchema, type SavedFileList } from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { FILES_QUERY_KEY } from './get-files';

/** DELETE /file/{id} (SPEC §7). */
export function deleteFile(id: string): Promise<MessageResponse> {
  return api.delete(`/file/${encodeURIComponent(id)}`, { schema: MessageResponseSchema });
}

/** Deletes the file, then removes its row (SPEC §4 "File deletion"). */
export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<SavedFileList>(FILES_QUERY_KEY, (files) =>
        files?.filter((file) => file._id !== id),
      );
    },
  });
}
