import { Badge, Button, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PAID_PLAN_TYPES, PLAN_FEATURES } from '@parla/contract';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { useSession } from '../../lib/auth';

const PLAN_TEXT: Record<(typeof PAID_PLAN_TYPES)[number], string> = {
  BASIC: 'For occasional projects: more characters and downloads.',
  PREMIUM: 'For creators who publish audio every week.',
  BUSINESS: 'For teams with large volumes and commercial use.',
};

function title(type: string): string {
  return type.charAt(0) + type.slice(1).toLowerCase();
}

/** Plan cards (SPEC §2 "Pricing"); prices and allowances come with the plan feature. */
export default function PricingPage() {
  const session = useSession();
  return (
    <Page
      title="Pricing"
      heading="Plans and pricing"
      description="Start free, then choose Basic, Premium or Business for more characters, downloads and your saved file history."
    >
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {PAID_PLAN_TYPES.map((type) => {
          const lower = type.toLowerCase();
          const popular = type === 'PREMIUM';
          return (
            <Card key={type} withBorder padding="xl" shadow={popular ? 'md' : undefined}>
              <Stack gap="md" h="100%">
                {popular && (
                  <Badge variant="filled" size="lg" style={{ alignSelf: 'flex-start' }}>
                    MOST POPULAR
                  </Badge>
                )}
                <Title order={2} fz="xl">
                  {title(type)}
                </Title>
                <Text c="dimmed">{PLAN_TEXT[type]}</Text>
                <List spacing={4} size="sm">
                  {PLAN_FEATURES.map((feature) => (
                    <List.Item key={feature}>{feature}</List.Item>
                  ))}
                </List>
                <Button
                  component={Link}
                  to={
                    session.status === 'signed-in'
                      ? `/account/checkout?type=${lower}`
                      : '/auth/login'
                  }
                  variant={popular ? 'filled' : 'default'}
                  mt="auto"
                  h={44}
                >
                  Choose {title(type)}
                </Button>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Page>
  );
}
