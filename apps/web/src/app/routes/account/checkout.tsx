import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../../../components/page';

export default function CheckoutPage() {
  return (
    <Page
      title="Checkout"
      heading="Checkout"
      description="Review your plan and billing details, then pay securely by card."
    >
      <Text>
        Changed your mind?{' '}
        <Anchor component={Link} to="/pricing">
          Back to the plans
        </Anchor>
      </Text>
    </Page>
  );
}
