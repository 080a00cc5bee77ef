import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ContentSections } from '../../components/content-sections';
import { Page } from '../../components/page';
import { pageQueryOptions } from '../../features/content/api/get-page';
import { PricingCards } from '../../features/plan/components/pricing-cards';
import { useRouteLanguage } from '../../hooks/use-route-language';

/**
 * Plan cards (SPEC §2 "Pricing"); prices and allowances come from GET /plan/info, the words
 * around them (what every plan includes, the questions people ask) from the content service.
 * The cards stand on their own if the text cannot be loaded.
 */
export default function PricingPage() {
  const { t } = useTranslation();
  const { language } = useRouteLanguage();
  const content = useQuery(pageQueryOptions(language, 'pricing'));
  return (
    <Page
      title={t('pricing.title')}
      heading={t('pricing.heading')}
      description={t('pricing.description')}
    >
      <Stack gap="xl">
        <PricingCards />
        {content.data && <ContentSections content={content.data} language={language} />}
      </Stack>
    </Page>
  );
}
