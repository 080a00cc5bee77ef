import { Stack, Text, Title } from '@mantine/core';
import { Page } from '../../components/page';
import { COMPANY } from '../../lib/company';

export default function TermsOfServicesPage() {
  return (
    <Page
      size="md"
      title="Terms of Services"
      heading="Terms of Services"
      description="The terms under which Parla provides text-to-speech conversion, accounts, plans and saved files."
    >
      <Stack gap="md" maw="70ch">
        <Title order={2} fz="xl">
          The service
        </Title>
        <Text>
          Parla is provided by {COMPANY.name}, {COMPANY.registration.toLowerCase()}. By using it you
          agree to these terms; saved audio files are deleted after 30 days.
        </Text>
      </Stack>
    </Page>
  );
}
