import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Page } from '../../components/page';
import { COMPANY } from '../../lib/company';

/** Contact (SPEC §2); the contact form arrives with the contact feature. */
export default function ContactPage() {
  return (
    <Page
      title="Contact"
      heading="Contact us"
      description="Questions about voices, plans or invoices? Write to us and the Parla team answers within one working day."
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Card withBorder padding="lg">
          <Stack gap="xs">
            <Title order={2} fz="lg">
              Write to us
            </Title>
            <Anchor href={`mailto:${COMPANY.email}`}>{COMPANY.email}</Anchor>
            <Text c="dimmed">We answer on working days, 9:00 to 17:30 UK time.</Text>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Stack gap="xs">
            <Title order={2} fz="lg">
              Call or visit
            </Title>
            <Anchor href={`tel:${COMPANY.phone.replace(/\s/g, '')}`}>{COMPANY.phone}</Anchor>
            <Text c="dimmed">
              {COMPANY.name}, {COMPANY.street}, {COMPANY.city} {COMPANY.postcode}
            </Text>
          </Stack>
        </Card>
      </SimpleGrid>
    </Page>
  );
}
