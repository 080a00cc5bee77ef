import { Alert, Anchor, SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { profileQueryOptions, useToken } from '../../../lib/auth';
import { useTaxIds } from '../api/get-tax-ids';
import { useSkeletonDelay } from '../hooks/use-skeleton-delay';
import { AccountBlock } from './account-block';
import { AccountOverview } from './account-overview';
import { ApiKeys } from './api-keys';
import { BillingSettingsForm } from './billing-settings-form';
import { ChangeEmailForm } from './change-email-form';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountForm } from './delete-account-form';
import { FieldSkeletons } from './field-skeletons';

export const BILLING_SETTINGS_ID = 'billingSettings';

/**
 * My Account (SPEC §2): the profile, then Change Email, Change Password, Billing Settings
 * (#billingSettings, linked from checkout) and Delete account. Every field is a skeleton for
 * about a second after the profile has loaded.
 */
export function AccountSettings() {
  const { t } = useTranslation();
  const token = useToken();
  const profileQuery = useQuery(profileQueryOptions(token));
  const taxIds = useTaxIds();
  const profile = profileQuery.data;
  const ready = useSkeletonDelay(Boolean(profile) && !taxIds.isPending);
  const { hash } = useLocation();

  // The block exists from the start, but its height settles only once the forms replace the
  // skeletons: scroll to it then.
  useEffect(() => {
    if (ready && hash === `#${BILLING_SETTINGS_ID}`) {
      document.getElementById(BILLING_SETTINGS_ID)?.scrollIntoView();
    }
  }, [ready, hash]);

  // SPEC §4: without the token, or when the profile call fails, the visitor is signed out.
  if (!token || profileQuery.isError) return <Navigate to="/auth/login" replace />;

  return (
    <Stack gap="lg">
      <AccountBlock title={t('account.yours')}>
        {profile && ready ? <AccountOverview profile={profile} /> : <FieldSkeletons count={2} />}
      </AccountBlock>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <AccountBlock
          title={t('account.changeEmail')}
          description={t('account.changeEmailDescription')}
        >
          {ready ? <ChangeEmailForm /> : <FieldSkeletons count={1} />}
        </AccountBlock>
        <AccountBlock title={t('account.changePassword')}>
          {profile && ready ? (
            <ChangePasswordForm email={profile.user.email} />
          ) : (
            <FieldSkeletons count={3} />
          )}
        </AccountBlock>
      </SimpleGrid>
      <AccountBlock
        id={BILLING_SETTINGS_ID}
        title={t('account.billing')}
        description={t('account.billingDescription')}
      >
        {profile && ready ? (
          <>
            {taxIds.isError && (
              <Alert color="red" variant="light" role="alert">
                {t('account.taxIdsFailed', { reason: taxIds.error.message })}
              </Alert>
            )}
            <BillingSettingsForm user={profile.user} taxIds={taxIds.data ?? []} />
          </>
        ) : (
          <FieldSkeletons count={8} />
        )}
      </AccountBlock>
      <AccountBlock
        id="api-keys"
        title={t('apiKeys.title')}
        description={
          // The API documentation is a link (issue 33, item 8).
          <Trans i18nKey="apiKeys.description" components={{ docs: <Anchor href="/api/docs" /> }} />
        }
      >
        {ready ? <ApiKeys /> : <FieldSkeletons count={2} />}
      </AccountBlock>
      <AccountBlock title={t('account.delete')} description={t('account.deleteDescription')}>
        {ready ? <DeleteAccountForm /> : <FieldSkeletons count={1} />}
      </AccountBlock>
    </Stack>
  );
}
