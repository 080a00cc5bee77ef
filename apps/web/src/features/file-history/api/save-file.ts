import {
  FILE_UPLOAD_FIELDS,
  FileSchema,
  fileMediaQuery,
  type SavedFile,
  SpeechMarksSchema,
  type VoiceSettings,
} from '@parla/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { FILES_QUERY_KEY } from './get-files';

export type SaveSettings = Parameters<typeof fileMediaQuery>[0] & Partial<VoiceSettings>;

export interface SaveFileInput {
  /** Where the converted audio is (the convertor's result path). */
  audioUrl: string;
  settings: SaveSettings;
  ssml: string;
  /** The saved file to overwrite, if any. */
  id?: string | null;
  /** Where the conversion's speech marks are; saved with the file (PUT /file/marks/{id}). */
  marksUrl?: string | null | undefined;
}

/**
 * Save (SPEC §4 "Convert"): uploads the audio — POST /file/media, or PUT /file/media/{id} to
 * overwrite — then the SSML with POST /file/ssml/{id}, then the conversion's speech marks
 * with PUT /file/marks/{id}.
 */
export async function saveFile({
  audioUrl,
  settings,
  ssml,
  id,
  marksUrl,
}: SaveFileInput): Promise<SavedFile> {
  const audio = await api.get<Blob>(audioUrl, { responseType: 'blob' });
  const media = new FormData();
  media.append(FILE_UPLOAD_FIELDS.media, audio, `audio.${settings.output_format}`);
  const query = fileMediaQuery(settings);
  const saved = id
    ? await api.put(`/file/media/${encodeURIComponent(id)}`, media, { query, schema: FileSchema })
    : await api.post('/file/media', media, { query, schema: FileSchema });
  const text = new FormData();
  text.append(
    FILE_UPLOAD_FIELDS.ssml,
    new Blob([ssml], { type: 'application/ssml+xml' }),
    'text.ssml',
  );
  const file = await api.post(`/file/ssml/${encodeURIComponent(saved._id)}`, text, {
    schema: FileSchema,
  });
  if (marksUrl) {
    const marks = await api.get(marksUrl, { schema: SpeechMarksSchema });
    await api.put(`/file/marks/${encodeURIComponent(saved._id)}`, marks);
  }
  return file;
}

export function useSaveFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: FILES_QUERY_KEY }),
  });
}
