import {
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { PAID_PLAN_TYPES, type PaidPlanType, planInfoKey } from '@parla/contract';
import { Link } from 'react-router';
import { useSession } from '../../../lib/auth';
import { usePlanInfo } from '../../../lib/plan-info';
import { useVoiceCounts } from '../api/get-voice-counts';
import { formatCount, formatDollars, planFeatures, planTitle } from '../lib/plan-features';

const PLAN_TEXT: Record<PaidPlanType, string> = {
  BASIC: 'For occasional projects: more characters and downloads.',
  PREMIUM: 'For creators who publish audio every week.',
  BUSINESS: 'For teams with large volumes and commercial use.',
};

/**
 * SPEC §2 "Pricing": the basic, premium and business cards; premium carries the 'MOST
 * POPULAR' ribbon. The button goes to the checkout when signed in, otherwise to login.
 */
export function PricingCards() {
  const session = useSession();
  const info = usePlanInfo();
  const counts = useVoiceCounts();
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      {PAID_PLAN_TYPES.map((type) => {
        const lower = type.toLowerCase();
        const popular = type === 'PREMIUM';
        const terms = info.data?.[planInfoKey(type)];
        const headingId = `plan-${lower}-heading`;
        return (
          <Card
            key={type}
            component="section"
            aria-labelledby={headingId}
            withBorder
            padding="xl"
            shadow={popular ? 'md' : undefined}
            style={popular ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
          >
            <Stack gap="md" h="100%">
              <Group justify="space-between" align="center" mih={28}>
                <Title order={2} fz="xl" id={headingId}>
                  {planTitle(type)}
                </Title>
                {popular && (
                  <Badge variant="filled" size="lg">
                    MOST POPULAR
                  </Badge>
                )}
              </Group>
              {terms ? (
                <Text>
                  <Text span fz={36} fw={700}>
                    {formatDollars(terms.price)}
                  </Text>{' '}
                  <Text span c="dimmed">
                    / month
                  </Text>
                </Text>
              ) : (
                <Skeleton height={44} width="50%" />
              )}
              <Text c="dimmed">{PLAN_TEXT[type]}</Text>
              <List spacing={4} size="sm">
                {terms ? (
                  <>
                    <List.Item>{formatCount(terms.count_characters)} characters</List.Item>
                    <List.Item>
                      Up to {formatCount(terms.count_characters_per_convert)} characters per
                      conversion
                    </List.Item>
                  </>
                ) : null}
                {planFeatures(counts.data).map((feature) => (
                  <List.Item key={feature}>{feature}</List.Item>
                ))}
              </List>
              <Button
                component={Link}
                to={
                  session.status === 'signed-in' ? `/account/checkout?type=${lower}` : '/auth/login'
                }
                variant={popular ? 'filled' : 'default'}
                mt="auto"
                h={44}
                aria-label={`Choose ${planTitle(type)}`}
              >
                Choose {planTitle(type)}
              </Button>
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
