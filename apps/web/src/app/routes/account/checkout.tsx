import { Skeleton } from '@mantine/core';
import { parseCheckoutType } from '@parla/contract';
import { Navigate, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { CheckoutForm } from '../../../features/checkout/components/checkout-form';
import { useSession } from '../../../lib/auth';

/** SPEC §2 Checkout: ?type=basic|premium|business in any case; anything else goes to /pricing. */
export default function CheckoutPage() {
  const [params] = useSearchParams();
  const type = parseCheckoutType(params.get('type'));
  const session = useSession();
  if (!type) return <Navigate to="/pricing" replace />;
  return (
    <Page
      title="Checkout"
      heading="Checkout"
      description="Review your plan and billing details, then pay securely by card."
      size="md"
    >
      {session.status === 'signed-in' ? (
        <CheckoutForm type={type} profile={session.profile} />
      ) : (
        <Skeleton height={420} radius="md" />
      )}
    </Page>
  );
}
