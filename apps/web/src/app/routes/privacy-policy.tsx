import { PRODUCT_NAME } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { ContentPage } from '../../features/content/components/content-page';

/** SPEC §2: the privacy policy, from the content service in the route language. */
export default function PrivacyPolicyPage() {
  const { t } = useTranslation();
  return (
    <ContentPage
      page="privacy-policy"
      fallbackTitle={t('privacy.title')}
      fallbackDescription={t('privacy.description', { product: PRODUCT_NAME })}
    />
  );
}
