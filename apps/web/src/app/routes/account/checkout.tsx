import { Anchor, Skeleton, Text } from '@mantine/core';
import { parseCheckoutType } from '@parla/contract';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { CheckoutForm } from '../../../features/checkout/components/checkout-form';
import { useSession } from '../../../lib/auth';

/** SPEC §2 Checkout: ?type=basic|premium|business in any case; anything else goes to /pricing. */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const given = params.get('type');
  const type = parseCheckoutType(given);
  const session = useSession();
  // A wrong type goes to /pricing (SPEC §2); with none at all, the page says where to choose.
  if (given !== null && !type) return <Navigate to="/pricing" replace />;
  return (
    <Page
      title="Checkout"
      heading="Checkout"
      description="Review your plan and billing details, then pay securely by card."
      size="md"
    >
      {!type ? (
        <Text>
          Choose the plan you want on the{' '}
          <Anchor component={Link} to="/pricing">
            Pricing
          </Anchor>{' '}
          page.
        </Text>
      ) : session.status === 'signed-in' ? (
        <CheckoutForm type={type} profile={session.profile} />
      ) : (
        <Skeleton height={420} radius="md" />
      )}
    </Page>
  );
}
