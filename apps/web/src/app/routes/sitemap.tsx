import { PRODUCT_NAME } from '@parla/contract';
import { Page } from '../../components/page';
import { SitemapView } from '../../features/content/components/sitemap-view';

/** /sitemap and /sitemap.html (SPEC §2): every page and article of every language. */
export default function SitemapPage() {
  return (
    <Page
      title="Sitemap"
      heading="Sitemap"
      description={`Every page and article of ${PRODUCT_NAME}, in every language it is written in.`}
    >
      <SitemapView />
    </Page>
  );
}
