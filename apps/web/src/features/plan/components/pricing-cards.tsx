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
import { PLAN_TYPES, type PlanType, planInfoKey, planLimits } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ltr } from '../../../components/ltr';
import { useFormat } from '../../../hooks/use-format';
import { usePageWords } from '../../../hooks/use-page-words';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { useSession } from '../../../lib/auth';
import { useCatalogueCounts } from '../../../lib/catalogue-counts';
import { PLAN_NAME_KEYS } from '../../../lib/plan-features';
import { usePlanInfo } from '../../../lib/plan-info';
import { type PlanAction, planAction } from '../lib/plan-action';

const PLAN_TEXT_KEYS = {
  FREE: 'pricing.freeText',
  BASIC: 'pricing.basicText',
  PREMIUM: 'pricing.premiumText',
  BUSINESS: 'pricing.businessText',
} as const satisfies Record<PlanType, string>;

const GIB = 1024 ** 3;

/**
 * SPEC §2 "Pricing" with issue 33 item 6: a card per plan, Free included, each listing what the
 * product really gives it (characters and price from GET /plan/info, every other limit from the
 * contract's constants the server enforces, voices counted from the catalogue); premium carries
 * the 'MOST POPULAR' ribbon. Signed in, the current plan is marked and the other buttons say
 * Upgrade or Change; signed out, a paid plan's button goes to login (SPEC).
 */
export function PricingCards() {
  const { t: site } = useTranslation();
  const { t, ready } = usePageWords();
  const format = useFormat();
  const session = useSession();
  const info = usePlanInfo();
  const counts = useCatalogueCounts();
  const current = session.status === 'signed-in' ? session.profile.plan.type : undefined;
  const gigabytes = new Intl.NumberFormat(format.locale, {
    style: 'unit',
    unit: 'gigabyte',
    maximumFractionDigits: 1,
  });
  if (!ready) return <Skeleton height={560} aria-hidden />;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" data-testid="plans">
      {PLAN_TYPES.map((type) => {
        const lower = type.toLowerCase();
        const popular = type === 'PREMIUM';
        const mine = type === current;
        const terms = info.data?.[planInfoKey(type)];
        const limits = planLimits(type);
        const headingId = `plan-${lower}-heading`;
        const name = site(PLAN_NAME_KEYS[type]);
        const action = planAction(type, current);
        const features = [
          // The plan's storage as the console set it; known once the terms are.
          ...(terms
            ? [
                terms.storage_bytes > 0
                  ? t('pricing.storage', { size: gigabytes.format(terms.storage_bytes / GIB) })
                  : t('pricing.noStorage'),
              ]
            : []),
          limits.documentCharacters > 0
            ? t('pricing.documents', {
                characters: format.number(limits.documentCharacters),
                count: limits.documentsAtOnce,
              })
            : t('pricing.noDocuments'),
          t('pricing.conversionsAtOnce', { count: limits.conversionsAtOnce }),
          counts.data
            ? t('pricing.voices', {
                voices: site('plans.voices', { count: counts.data.voices }),
                languages: site('plans.languages', { count: counts.data.languages }),
              })
            : site('plans.everyVoice'),
          t('pricing.lexicons', {
            count: limits.lexicons,
            entries: format.number(limits.lexiconEntries),
          }),
          t('pricing.api'),
          ...(type === 'FREE' ? [] : [t('pricing.commercialUse'), t('pricing.support')]),
        ];
        return (
          <Card
            key={type}
            component="section"
            aria-labelledby={headingId}
            withBorder
            padding="lg"
            shadow={popular || mine ? 'md' : undefined}
            style={
              popular || mine
                ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                : undefined
            }
          >
            <Stack gap="md" h="100%">
              {/* The ribbon's row, kept in every card so that prices and lists line up. */}
              <Stack gap={6}>
                <Group mih={26} gap="xs">
                  {mine && (
                    <Badge variant="light" size="lg">
                      {t('pricing.current')}
                    </Badge>
                  )}
                  {popular && !mine && (
                    <Badge variant="filled" size="lg">
                      {t('pricing.mostPopular')}
                    </Badge>
                  )}
                </Group>
                <Title order={2} fz="xl" id={headingId}>
                  {name}
                </Title>
              </Stack>
              {terms ? (
                <Text>
                  <Text span fz={36} fw={700}>
                    <Ltr>{format.dollars(terms.price)}</Ltr>
                  </Text>{' '}
                  <Text span c="dimmed">
                    {t('pricing.perMonth')}
                  </Text>
                </Text>
              ) : (
                <Skeleton height={44} width="50%" />
              )}
              <Text c="dimmed">{t(PLAN_TEXT_KEYS[type])}</Text>
              <List spacing={6} size="sm">
                {terms ? (
                  <>
                    <List.Item fw={600}>
                      {t('pricing.charactersPerMonth', {
                        characters: site('plans.characters', { count: terms.count_characters }),
                      })}
                    </List.Item>
                    <List.Item fw={600}>
                      {t('pricing.perConversion', { count: terms.count_characters_per_convert })}
                    </List.Item>
                  </>
                ) : (
                  <Skeleton height={40} />
                )}
                {features.map((feature) => (
                  <List.Item key={feature}>{feature}</List.Item>
                ))}
              </List>
              <PlanButton action={action} type={type} name={name} popular={popular} />
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

/** The card's button: what the visitor can do with this plan (lib/plan-action.ts). */
function PlanButton({
  action,
  type,
  name,
  popular,
}: {
  action: PlanAction;
  type: PlanType;
  name: string;
  popular: boolean;
}) {
  const { t } = usePageWords();
  const { to } = useRouteLanguage();
  if (action === 'none') return null;
  const checkout = `/account/checkout?type=${type.toLowerCase()}`;
  const link = {
    start: { to: to('/convertor'), label: t('pricing.startFree') },
    choose: { to: '/auth/login', label: t('pricing.choose', { plan: name }) },
    upgrade: { to: checkout, label: t('pricing.upgrade', { plan: name }) },
    change: { to: checkout, label: t('pricing.change', { plan: name }) },
    renew: { to: checkout, label: t('pricing.renew', { plan: name }) },
  }[action];
  return (
    <Button
      component={Link}
      to={link.to}
      variant={popular || action === 'upgrade' ? 'filled' : 'default'}
      mt="auto"
      h={44}
    >
      {link.label}
    </Button>
  );
}
