import {
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { formatFileSize, type Profile } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../../hooks/use-format';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { PLAN_NAME_KEYS } from '../../../lib/plan-features';
import { useStorageUsage } from '../api/get-storage-usage';
import { usageOf } from '../lib/usage';

const PERIOD_KEYS = { month: 'myPlan.monthly', year: 'myPlan.yearly' } as const;

/**
 * SPEC §2 "My Plan": the current plan with its CURRENTLY badge, the period ribbon when the
 * period is not none, the characters used against the allowance, and BUY NOW to /pricing.
 */
export function MyPlan({ profile }: { profile: Profile }) {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const { number: formatCount } = useFormat();
  const { plan } = profile;
  const usage = usageOf(plan);
  return (
    <Card withBorder padding="xl" component="section" aria-labelledby="current-plan-heading">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start">
          <Stack gap={6}>
            <Group gap="sm">
              <Title order={2} fz="xl" id="current-plan-heading">
                {t(PLAN_NAME_KEYS[plan.type])}
              </Title>
              <Badge variant="light" size="lg">
                {t('myPlan.currently')}
              </Badge>
            </Group>
            {plan.period !== 'none' && (
              <Badge
                variant="filled"
                color="teal.9"
                size="lg"
                radius="sm"
                aria-label={t('myPlan.period')}
              >
                {t(PERIOD_KEYS[plan.period])}
              </Badge>
            )}
          </Stack>
          <Button component={Link} to={to('/pricing')} h={44}>
            {t('myPlan.buyNow')}
          </Button>
        </Group>

        <Stack gap={6}>
          <Group justify="space-between">
            <Text fw={600} id="usage-label">
              {t('myPlan.charactersUsed')}
            </Text>
            <Text c="dimmed">
              {t('myPlan.usedOf', {
                used: formatCount(usage.used),
                allowance: formatCount(usage.allowance),
              })}
            </Text>
          </Group>
          <Progress.Root size="xl">
            <Progress.Section
              value={usage.percentUsed}
              aria-labelledby="usage-label"
              aria-valuetext={t('myPlan.usedOfCharacters', {
                used: formatCount(usage.used),
                allowance: formatCount(usage.allowance),
              })}
            />
          </Progress.Root>
        </Stack>

        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Stat label={t('myPlan.used')} value={formatCount(usage.used)} />
          <Stat
            label={t('myPlan.perConversion')}
            value={formatCount(plan.count_characters_per_convert)}
          />
          <Stat label={t('myPlan.remaining')} value={formatCount(usage.remaining)} />
        </SimpleGrid>

        <StorageUsageBar />
      </Stack>
    </Card>
  );
}

/** The plan's storage quota for saved files and how much of it they use (issue 13 item 5). */
function StorageUsageBar() {
  const { t } = useTranslation();
  const storage = useStorageUsage();
  const data = storage.data;
  if (storage.isError) return null;
  const sizes = data && {
    used: formatFileSize(data.used_bytes),
    quota: formatFileSize(data.quota_bytes),
  };
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text fw={600} id="storage-label">
          {t('myPlan.storage')}
        </Text>
        {!data ? (
          <Skeleton height={16} width={120} />
        ) : data.quota_bytes > 0 ? (
          <Text c="dimmed">{t('myPlan.storageUsedOf', sizes)}</Text>
        ) : (
          <Text c="dimmed">{t('myPlan.storagePaidOnly')}</Text>
        )}
      </Group>
      {data && data.quota_bytes > 0 && (
        <Progress.Root size="xl">
          <Progress.Section
            value={Math.min(100, (data.used_bytes / data.quota_bytes) * 100)}
            aria-labelledby="storage-label"
            aria-valuetext={t('myPlan.storageUsedOfAria', sizes)}
          />
        </Progress.Root>
      )}
    </Stack>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder padding="md">
      <Text c="dimmed" fz="sm">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Card>
  );
}
