import { Page } from '../../components/page';
import { PricingCards } from '../../features/plan/components/pricing-cards';

/** Plan cards (SPEC §2 "Pricing"); prices and allowances come from GET /plan/info. */
export default function PricingPage() {
  return (
    <Page
      title="Pricing"
      heading="Plans and pricing"
      description="Start free, then choose Basic, Premium or Business for more characters, downloads and your saved file history."
    >
      <PricingCards />
    </Page>
  );
}
