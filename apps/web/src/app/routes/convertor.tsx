import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ConvertorPage } from '../../features/convertor/components/convertor-page';
import { SaveAudioButton } from '../../features/file-history/components/save-audio-button';
import { useSavedFile } from '../../features/file-history/hooks/use-saved-file';
import { useRouteLanguage } from '../../hooks/use-route-language';

/**
 * The editor home (SPEC §2 "Convertor"): /convertor, /convertor/text and /convertor/ssml. With
 * ?id= a signed-in user's saved file opens in it (text, settings and audio); Save overwrites it.
 */
export default function ConvertorRoute() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const saved = useSavedFile(id);
  const navigate = useNavigate();
  const { t } = useTranslation();
  const { to, path } = useRouteLanguage();

  // SPEC §4: a convertor that cannot load what it was asked for goes back to its default route.
  useEffect(() => {
    if (saved.status === 'error') void navigate(to(path), { replace: true });
  }, [saved.status, navigate, to, path]);

  // The audio's object URL follows the data by one render: wait for it, then mount once.
  const opening =
    saved.status === 'loading' ||
    saved.status === 'error' ||
    (saved.status === 'ready' && !saved.audioUrl);
  if (opening) {
    return (
      <Center mih="60vh">
        <Loader role="status" aria-label={t('convertor.openingFile')} />
      </Center>
    );
  }
  const initial =
    saved.status === 'ready' && saved.settings && saved.ssml !== undefined
      ? {
          ssml: saved.ssml,
          settings: { ...saved.settings, text: saved.ssml, voice_effects: [] },
          ...(saved.audioUrl &&
            saved.file && {
              audio: {
                path: saved.audioUrl,
                duration: saved.file.length,
                marksPath: `/api/file/marks/${saved.file._id}`,
                subtitlesPath: `/api/file/subtitles/${saved.file._id}`,
              },
            }),
        }
      : undefined;
  return (
    <ConvertorPage
      // Opening another file mounts the page afresh with that file.
      key={initial ? `file-${id}` : 'new'}
      initial={initial}
      saveSlot={(conversion) => <SaveAudioButton {...conversion} />}
    />
  );
}
