import { Alert, Anchor, Button } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { getAudio } from '../api/get-audio';
import { type DownloadRight, saveBlob } from '../lib/download';

export const DOWNLOAD_MESSAGES = {
  anonymous: 'Log in and have a plan to download your audio.',
  needsPlan: 'Buy a plan to download your audio.',
} as const;

interface DownloadAreaProps {
  right: DownloadRight;
  path: string;
  fileName: string;
  to: (path: string) => string;
}

/** SPEC §6: download hidden for anonymous visitors and for USER on FREE, with a message. */
export function DownloadArea({ right, path, fileName, to }: DownloadAreaProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (right === 'anonymous') {
    return (
      <Alert variant="light" color="gray" p="xs" data-testid="download-message">
        {DOWNLOAD_MESSAGES.anonymous}{' '}
        <Anchor component={Link} to={to('/auth/login')}>
          Log in
        </Anchor>{' '}
        or{' '}
        <Anchor component={Link} to={to('/pricing')}>
          see the plans
        </Anchor>
        .
      </Alert>
    );
  }
  if (right === 'needs-plan') {
    return (
      <Alert variant="light" color="gray" p="xs" data-testid="download-message">
        {DOWNLOAD_MESSAGES.needsPlan}{' '}
        <Anchor component={Link} to={to('/pricing')}>
          See the plans
        </Anchor>
        .
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
        Download
      </Button>
      {error && (
        <Alert color="red" p="xs" role="alert">
          {error}
        </Alert>
      )}
    </>
  );
}
