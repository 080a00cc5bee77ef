import { Center, Loader } from '@mantine/core';
import { Page } from '../../components/page';
import { PronunciationsPage } from '../../features/pronunciations/components/pronunciations-page';
import { useLexiconWords } from '../../hooks/use-lexicon-words';
import { useRouteLanguage } from '../../hooks/use-route-language';
import { describeLanguage } from '../../lib/languages';

/** Pronunciations (issue 32, guarded route): the user's lexicons, applied by every conversion. */
export default function PronunciationsRoute() {
  const { t, ready } = useLexiconWords();
  const { language } = useRouteLanguage();
  if (!ready) {
    return (
      <Center mih="60vh">
        <Loader role="status" aria-label={t('page.title')} />
      </Center>
    );
  }
  return (
    <Page title={t('page.title')} heading={t('page.title')} description={t('page.description')}>
      <PronunciationsPage language={describeLanguage(language).locale} />
    </Page>
  );
}
