import { PRODUCT_NAME } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { ContentPage } from '../../features/content/components/content-page';

/** SPEC §2: the terms of services, from the content service in the route language. */
export default function TermsOfServicesPage() {
  const { t } = useTranslation();
  return (
    <ContentPage
      page="terms-of-services"
      fallbackTitle={t('terms.title')}
      fallbackDescription={t('terms.description', { product: PRODUCT_NAME })}
    />
  );
}
