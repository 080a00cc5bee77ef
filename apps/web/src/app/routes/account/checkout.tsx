import { Anchor, Skeleton, Text } from '@mantine/core';
import { parseCheckoutType } from '@parla/contract';
import { Trans, useTranslation } from 'react-i18next';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { CheckoutForm } from '../../../features/checkout/components/checkout-form';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { useSession } from '../../../lib/auth';

/** SPEC §2 Checkout: ?type=basic|premium|business in any case; anything else goes to /pricing. */
export default function CheckoutPage() {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const given = params.get('type');
  const type = parseCheckoutType(given);
  const session = useSession();
  // A wrong type goes to /pricing (SPEC §2); with none at all, the page says where to choose.
  if (given !== null && !type) return <Navigate to={to('/pricing')} replace />;
  return (
    <Page
      title={t('checkout.title')}
      heading={t('checkout.title')}
      description={t('checkout.description')}
      size="md"
    >
      {!type ? (
        <Text>
          <Trans
            i18nKey="checkout.choosePlan"
            components={{ pricing: <Anchor component={Link} to={to('/pricing')} /> }}
          />
        </Text>
      ) : session.status === 'signed-in' ? (
        <CheckoutForm type={type} profile={session.profile} />
      ) : (
        <Skeleton height={420} radius="md" />
      )}
    </Page>
  );
}
