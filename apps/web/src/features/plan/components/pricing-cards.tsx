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
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { useSession } from '../../../lib/auth';
import { useCatalogueCounts } from '../../../lib/catalogue-counts';
import { PLAN_NAME_KEYS, planFeatures } from '../../../lib/plan-features';
import { usePlanInfo } from '../../../lib/plan-info';

const PLAN_TEXT_KEYS = {
  BASIC: 'plans.basicText',
  PREMIUM: 'plans.premiumText',
  BUSINESS: 'plans.businessText',
} as const satisfies Record<PaidPlanType, string>;

/**
 * SPEC §2 "Pricing": the basic, premium and business cards; premium carries the 'MOST
 * POPULAR' ribbon. The button goes to the checkout when signed in, otherwise to login.
 */
export function PricingCards() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const info = usePlanInfo();
  const counts = useCatalogueCounts();
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      {PAID_PLAN_TYPES.map((type) => {
        const lower = type.toLowerCase();
        const popular = type === 'PREMIUM';
        const terms = info.data?.[planInfoKey(type)];
        const headingId = `plan-${lower}-heading`;
        const name = t(PLAN_NAME_KEYS[type]);
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
                  {name}
                </Title>
                {popular && (
                  <Badge variant="filled" size="lg">
                    {t('plans.mostPopular')}
                  </Badge>
                )}
              </Group>
              {terms ? (
                <Text>
                  <Text span fz={36} fw={700}>
                    <Ltr>{format.dollars(terms.price)}</Ltr>
                  </Text>{' '}
                  <Text span c="dimmed">
                    {t('plans.perMonth')}
                  </Text>
                </Text>
              ) : (
                <Skeleton height={44} width="50%" />
              )}
              <Text c="dimmed">{t(PLAN_TEXT_KEYS[type])}</Text>
              <List spacing={4} size="sm">
                {terms ? (
                  <>
                    <List.Item>
                      {t('plans.characters', { count: terms.count_characters })}
                    </List.Item>
                    <List.Item>
                      {t('plans.perConversion', { count: terms.count_characters_per_convert })}
                    </List.Item>
                  </>
                ) : null}
                {planFeatures(t, counts.data).map((feature) => (
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
              >
                {t('plans.choose', { plan: name })}
              </Button>
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
