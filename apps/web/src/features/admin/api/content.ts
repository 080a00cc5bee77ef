import {
  type AdminContentDocument,
  AdminContentDocumentSchema,
  type AdminContentImages,
  AdminContentImagesSchema,
  type AdminContentList,
  AdminContentListSchema,
  type AdminContentPreview,
  type AdminContentPreviewInput,
  AdminContentPreviewSchema,
  type AdminContentSource,
  type ContentKind,
} from '@parla/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The console's Content calls (/api/admin/content, docs/api.md "Operator console API"). */

export interface ContentKey {
  kind: ContentKind;
  language: string;
  slug: string;
}

export const contentPath = ({ kind, language, slug }: ContentKey) =>
  `/admin/content/${kind}/${encodeURIComponent(language)}/${encodeURIComponent(slug)}`;

export const contentListQueryOptions = queryOptions({
  queryKey: ['admin', 'content', 'list'],
  queryFn: ({ signal }): Promise<AdminContentList> =>
    api.get('/admin/content', { schema: AdminContentListSchema, signal }),
});

/** A document; a language without one yet answers 404 (a translation to write). */
export const contentDocumentQueryOptions = (key: ContentKey) =>
  queryOptions({
    queryKey: ['admin', 'content', 'document', key.kind, key.language, key.slug],
    queryFn: ({ signal }): Promise<AdminContentDocument> =>
      api.get(contentPath(key), { schema: AdminContentDocumentSchema, signal }),
    retry: false,
  });

/** The Markdown body as the site will show it (the server's renderer and sanitiser). */
export const previewQueryOptions = (input: AdminContentPreviewInput) =>
  queryOptions({
    queryKey: ['admin', 'content', 'preview', input],
    queryFn: ({ signal }): Promise<AdminContentPreview> =>
      api.post('/admin/content/preview', input, { schema: AdminContentPreviewSchema, signal }),
    placeholderData: (previous) => previous,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** What the editor can do to a document; each answer is the document as it now is. */
export type ContentChange =
  | { action: 'save'; source: AdminContentSource }
  | { action: 'publish'; at: string | null }
  | { action: 'restore'; revision: string };

export function useContentChange(key: ContentKey) {
  const queryClient = useQueryClient();
  const schema = AdminContentDocumentSchema;
  return useMutation({
    mutationFn: (change: ContentChange): Promise<AdminContentDocument> => {
      const path = contentPath(key);
      switch (change.action) {
        case 'save':
          return api.put(path, change.source, { schema });
        case 'publish':
          return api.post(`${path}/publish`, { at: change.at }, { schema });
        case 'restore':
          return api.post(
            `${path}/revisions/${encodeURIComponent(change.revision)}/restore`,
            {},
            {
              schema,
            },
          );
      }
    },
    onSuccess: (document) =>
      queryClient.setQueryData(contentDocumentQueryOptions(key).queryKey, document),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'content', 'list'] }),
  });
}

export const contentImagesQueryOptions = queryOptions({
  queryKey: ['admin', 'content', 'images'],
  queryFn: ({ signal }): Promise<AdminContentImages> =>
    api.get('/admin/content/images', { schema: AdminContentImagesSchema, signal }),
});

/** A file's bytes in base64, as the upload sends them. */
async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Uploads a picture to the server's storage; the answer is every picture there is. */
export function useImageUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, file }: { name: string; file: Blob }) =>
      api.post(
        '/admin/content/images',
        { name, data: await base64Of(file) },
        { schema: AdminContentImagesSchema },
      ),
    onSuccess: (images) => queryClient.setQueryData(contentImagesQueryOptions.queryKey, images),
  });
}
