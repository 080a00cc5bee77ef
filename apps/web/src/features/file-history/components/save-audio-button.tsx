import { Anchor, Button, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { useSession } from '../../../lib/auth';
import { type SaveSettings, useSaveFile } from '../api/save-file';

export interface SaveAudioButtonProps {
  /** The converted audio's address. */
  audioUrl: string;
  settings: SaveSettings;
  /** The SSML the audio was made from. */
  ssml: string;
  /** The saved file to overwrite; defaults to the page's ?id=. */
  fileId?: string | null;
  /** The conversion's speech marks, saved with it. */
  marksUrl?: string;
}

/**
 * Save (SPEC §4 "Convert"): shown to signed-in users whose plan allows saving (paid plans, or
 * a role other than USER, SPEC §6). Uploads the audio then the SSML; with an id — the page's
 * ?id= or the file this button saved before — it overwrites that file.
 */
export function SaveAudioButton({
  audioUrl,
  settings,
  ssml,
  fileId,
  marksUrl,
}: SaveAudioButtonProps) {
  const session = useSession();
  const [params] = useSearchParams();
  const [savedId, setSavedId] = useState<string>();
  const save = useSaveFile();
  const { t } = useTranslation();
  if (session.status !== 'signed-in') return null;
  const { user, plan } = session.profile;
  if (user.role === 'USER' && plan.type === 'FREE') return null;
  const id = fileId ?? savedId ?? params.get('id');

  return (
    <Stack gap="xs">
      <Button
        h={44}
        loading={save.isPending}
        onClick={() =>
          save.mutate(
            { audioUrl, settings, ssml, id, marksUrl },
            { onSuccess: (file) => setSavedId(file._id) },
          )
        }
      >
        {t('save.save')}
      </Button>
      {save.isSuccess && (
        <FormAlert kind="success" title={t('save.saved')}>
          <Anchor component={Link} to="/file-history">
            {t('save.openHistory')}
          </Anchor>
        </FormAlert>
      )}
      {save.isError && <FormAlert kind="failure" title={save.error.message || t('save.failed')} />}
    </Stack>
  );
}
