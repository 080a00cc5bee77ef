import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getJobFile } from '../../../lib/jobs';
import { saveBlob } from '../../../lib/save-blob';
import { getFileMedia } from '../api/get-file-media';
import type { FileRow } from '../lib/file-row';

// The player loads with the first Play.
const AudioPlayer = lazy(() =>
  import('../../../components/player/audio-player').then((m) => ({ default: m.AudioPlayer })),
);

/** The audio of a row: a saved file's (the owner's token) or an audiobook's. */
export function rowAudio(row: FileRow, signal?: AbortSignal): Promise<Blob> {
  return row.kind === 'file'
    ? getFileMedia(row.id, signal)
    : getJobFile(row.audioPath ?? '', signal);
}

/** Downloads a row's audio, named after the audiobook's title or the saved file. */
export async function downloadRow(row: FileRow): Promise<void> {
  const name = row.kind === 'file' ? `parla-${row.id}` : row.snippet;
  saveBlob(await rowAudio(row), `${name}.${row.format}`);
}

/** A row's audio in the app's player, playing as soon as it has come (Play was clicked). */
export function RowPlayer({ row, label }: { row: FileRow; label: string }) {
  const { t } = useTranslation();
  const audio = useQuery({
    queryKey: ['file-history', 'audio', row.kind, row.id],
    queryFn: ({ signal }) => rowAudio(row, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!audio.data) return;
    const made = URL.createObjectURL(audio.data);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(undefined);
    };
  }, [audio.data]);
  if (audio.isError) {
    return (
      <Text size="sm" c="red" role="alert">
        {audio.error.message}
      </Text>
    );
  }
  const loading = (
    <Text size="sm" c="dimmed" role="status">
      {t('fileHistory.loadingAudio')}
    </Text>
  );
  if (!url) return loading;
  return (
    <Suspense fallback={loading}>
      <AudioPlayer path={url} duration={row.seconds} label={label} autoPlay focusOnLoad />
    </Suspense>
  );
}
