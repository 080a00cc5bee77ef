import { Page } from '../../../components/page';
import { ForgottenPasswordForm } from '../../../features/auth/components/forgotten-password-form';

export default function ForgottenPasswordPage() {
  return (
    <Page
      size="xs"
      title="Forgotten password"
      heading="Forgotten password"
      description="Enter the email address of your account and we will send you a link to choose a new password."
    >
      <ForgottenPasswordForm />
    </Page>
  );
}
