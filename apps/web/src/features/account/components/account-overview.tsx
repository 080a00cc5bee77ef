import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { findCountry, MESSAGES, type Profile, taxIdLabel } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** A profile value as the account page shows it: '-' when empty (SPEC §3). */
export function displayValue(value: string | null | undefined): string {
  const text = value?.trim();
  return text ? text : MESSAGES.account.emptyValue;
}

function addressLine(profile: Profile): string | null {
  const { line1, line2, city, state, postal_code, country } = profile.user.address;
  const countryName = country ? (findCountry(country)?.country ?? country) : null;
  const parts = [line1, line2, city, state, postal_code, countryName].filter(
    (part): part is string => Boolean(part?.trim()),
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

function taxLine(profile: Profile): string | null {
  const { type, code } = profile.user.tax;
  return type && code ? `${taxIdLabel(type)} ${code}` : null;
}

function Item({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <Stack gap={2}>
      <Text component="dt" fz="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
        {displayValue(value)}
      </Text>
    </Stack>
  );
}

/** What the account holds today: the values of the profile, '-' where there is none. */
export function AccountOverview({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="md" m={0}>
        <Item label={t('auth.emailAddress')} value={profile.user.email} />
        <Item label={t('account.plan')} value={profile.plan.type} />
        <Item label={t('account.name')} value={profile.user.name} />
        <Item label={t('account.phone')} value={profile.user.phone} />
        <Item label={t('account.billingAddress')} value={addressLine(profile)} />
        <Item label={t('account.taxId')} value={taxLine(profile)} />
      </SimpleGrid>
      <Text>
        <Anchor component={Link} to="/account/plan">
          {t('account.seePlan')}
        </Anchor>
      </Text>
    </Stack>
  );
}
