import { Page } from '../../../components/page';
import { AccountSettings } from '../../../features/account/components/account-settings';

/** My Account (SPEC §2, guarded). */
export default function AccountPage() {
  return (
    <Page
      title="My Account"
      heading="My Account"
      description="Manage your email address, password, billing details and account."
    >
      <AccountSettings />
    </Page>
  );
}
