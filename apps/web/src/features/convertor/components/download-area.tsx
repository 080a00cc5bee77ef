import { Alert, Anchor, Button } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getSubtitles } from '../../../lib/get-marks';
import { getAudio } from '../api/get-audio';
import { type DownloadRight, saveBlob } from '../lib/download';

interface DownloadAreaProps {
  right: DownloadRight;
  path: string;
  fileName: string;
  to: (path: string) => string;
  /** The conversion's subtitles (WebVTT, `?format=srt` for SRT), offered beside the audio. */
  subtitlesPath?: string | null | undefined;
}

/** SPEC §6: download hidden for anonymous visitors and for USER on FREE, with a message. */
export function DownloadArea({ right, path, fileName, to, subtitlesPath }: DownloadAreaProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'audio' | 'srt' | 'vtt' | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (right === 'anonymous') {
    return (
      <Alert variant="light" color="gray" p="xs" data-testid="download-message">
        {t('download.anonymous')}{' '}
        <Trans
          i18nKey="download.anonymousLinks"
          components={{
            login: <Anchor component={Link} to={to('/auth/login')} />,
            plans: <Anchor component={Link} to={to('/pricing')} />,
          }}
        />
      </Alert>
    );
  }
  if (right === 'needs-plan') {
    return (
      <Alert variant="light" color="gray" p="xs" data-testid="download-message">
        {t('download.needsPlan')}{' '}
        <Trans
          i18nKey="download.needsPlanLink"
          components={{ plans: <Anchor component={Link} to={to('/pricing')} /> }}
        />
      </Alert>
    );
  }
  const save = async (what: 'audio' | 'srt' | 'vtt') => {
    setBusy(what);
    setError(null);
    try {
      if (what === 'audio') saveBlob(await getAudio(path), fileName);
      else if (subtitlesPath) {
        const base = fileName.replace(/\.\w+$/, '');
        saveBlob(await getSubtitles(subtitlesPath, what), `${base}.${what}`);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(null);
    }
  };
  return (
    <>
      <Button variant="light" loading={busy === 'audio'} onClick={() => void save('audio')}>
        {t('download.download')}
      </Button>
      {subtitlesPath &&
        (['srt', 'vtt'] as const).map((format) => (
          <Button
            key={format}
            variant="subtle"
            loading={busy === format}
            onClick={() => void save(format)}
          >
            {t(format === 'srt' ? 'readAlong.downloadSrt' : 'readAlong.downloadVtt')}
          </Button>
        ))}
      {error && (
        <Alert color="red" p="xs" role="alert">
          {error}
        </Alert>
      )}
    </>
  );
}
