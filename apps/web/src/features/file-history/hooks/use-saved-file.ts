import type { SavedFile, VoiceSettings } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getFile } from '../api/get-file';
import { getFileMedia } from '../api/get-file-media';
import { getFileSsml } from '../api/get-file-ssml';

/** The voice settings a saved file was made with (what the editor restores). */
export type SavedFileSettings = Omit<VoiceSettings, 'text' | 'voice_effects'>;

export interface SavedFileState {
  status: 'idle' | 'loading' | 'error' | 'ready';
  file?: SavedFile;
  ssml?: string;
  settings?: SavedFileSettings;
  /** An object URL of the saved audio, revoked when the file changes or the page closes. */
  audioUrl?: string;
  error?: Error;
}

function settingsOf(file: SavedFile): SavedFileSettings {
  return {
    engine: file.engine,
    language_code: file.language_code,
    voice_id: file.voice_id,
    effect: file.effect,
    output_format: file.output_format,
    sample_rate: file.sample_rate,
    master_speed: file.master_speed,
    master_volume: file.master_volume,
    master_pitch: file.master_pitch,
  } as SavedFileSettings;
}

/**
 * A saved file for /convertor?id=… (SPEC §2 Convertor: "the query parameter id opens a saved
 * file"): its SSML, its settings and its audio. Idle without an id.
 */
export function useSavedFile(id: string | null | undefined): SavedFileState {
  const enabled = Boolean(id);
  const query = useQuery({
    queryKey: ['file', 'saved', id ?? null],
    enabled,
    retry: false,
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const fileId = id ?? '';
      const [file, ssml, audio] = await Promise.all([
        getFile(fileId, signal),
        getFileSsml(fileId, signal).catch(() => ''),
        getFileMedia(fileId, signal),
      ]);
      return { file, ssml, audio };
    },
  });
  const [audioUrl, setAudioUrl] = useState<string>();
  const audio = query.data?.audio;
  useEffect(() => {
    if (!audio) return;
    const url = URL.createObjectURL(audio);
    setAudioUrl(url);
    return () => {
      URL.revokeObjectURL(url);
      setAudioUrl(undefined);
    };
  }, [audio]);

  if (!enabled) return { status: 'idle' };
  if (query.isError) return { status: 'error', error: query.error };
  if (!query.data) return { status: 'loading' };
  return {
    status: 'ready',
    file: query.data.file,
    ssml: query.data.ssml,
    settings: settingsOf(query.data.file),
    ...(audioUrl && { audioUrl }),
  };
}
