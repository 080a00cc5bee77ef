import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { PronunciationsPage } from '../../features/pronunciations/components/pronunciations-page';
import { useRouteLanguage } from '../../hooks/use-route-language';
import { describeLanguage } from '../../lib/languages';

/** Pronunciations (issue 32, guarded route): the user's lexicons, applied by every conversion. */
export default function PronunciationsRoute() {
  const { t } = useTranslation();
  const { language } = useRouteLanguage();
  return (
    <Page
      title={t('pronunciations.title')}
      heading={t('pronunciations.title')}
      description={t('pronunciations.description')}
    >
      <PronunciationsPage language={describeLanguage(language).locale} />
    </Page>
  );
}
