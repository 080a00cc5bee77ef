import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../../../components/page';

export default function PlanPage() {
  return (
    <Page
      title="My Plan"
      heading="My Plan"
      description="Your current plan, the characters you have used and what remains."
    >
      <Text>
        Need more characters?{' '}
        <Anchor component={Link} to="/pricing">
          BUY NOW
        </Anchor>
      </Text>
    </Page>
  );
}
