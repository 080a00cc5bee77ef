import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';
import { AccountSettings } from '../../../features/account/components/account-settings';

/** My Account (SPEC §2, guarded). */
export default function AccountPage() {
  const { t } = useTranslation();
  return (
    <Page title="My Account" heading="My Account" description={t('account.description')}>
      <AccountSettings />
    </Page>
  );
}
