import { Stack, Text, Title } from '@mantine/core';
import { Page } from '../../components/page';
import { COMPANY } from '../../lib/company';

export default function PrivacyPolicyPage() {
  return (
    <Page
      size="md"
      title="Privacy Policy"
      heading="Privacy Policy"
      description="How Parla collects, uses and protects your personal data, and the rights you have over it."
    >
      <Stack gap="md" maw="70ch">
        <Title order={2} fz="xl">
          Who we are
        </Title>
        <Text>
          {COMPANY.name} ({COMPANY.street}, {COMPANY.city} {COMPANY.postcode}) is the controller of
          the personal data you give us when you use Parla. Questions about your data go to{' '}
          {COMPANY.email}.
        </Text>
      </Stack>
    </Page>
  );
}
