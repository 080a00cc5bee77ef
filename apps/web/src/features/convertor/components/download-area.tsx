import { Alert, Anchor, Button } from '@mantine/core';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { getAudio } from '../api/get-audio';
import { type DownloadRight, saveBlob } from '../lib/download';

interface DownloadAreaProps {
  right: DownloadRight;
  path: string;
  fileName: string;
  to: (path: string) => string;
}

/** SPEC §6: download hidden for anonymous visitors and for USER on FREE, with a message. */
export function DownloadArea({ right, path, fileName, to }: DownloadAreaProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
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
  return (
    <>
      <Button
        variant="light"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          try {
            saveBlob(await getAudio(path), fileName);
          } catch (failure) {
            setError(failure instanceof Error ? failure.message : String(failure));
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('download.download')}
      </Button>
      {error && (
        <Alert color="red" p="xs" role="alert">
          {error}
        </Alert>
      )}
    </>
  );
}
