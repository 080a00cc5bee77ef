import { PRODUCT_NAME } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/page';
import { SitemapView } from '../../features/content/components/sitemap-view';

/** /sitemap and /sitemap.html (SPEC §2): every page and article of every language. */
export default function SitemapPage() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('sitemap.title')}
      heading={t('sitemap.title')}
      description={t('sitemap.description', { product: PRODUCT_NAME })}
    >
      <SitemapView />
    </Page>
  );
}
