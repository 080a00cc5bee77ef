import { useParams } from 'react-router';
import { Page } from '../../../components/page';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form';

export default function ResetPasswordPage() {
  const { key = '' } = useParams();
  return (
    <Page
      size="xs"
      title="Reset password"
      heading="Choose a new password"
      description="Choose a new password for your Parla account; the link from your email is valid for a limited time."
    >
      {/* A new key is a new form: nothing typed for another link carries over. */}
      <ResetPasswordForm key={key} resetKey={key} />
    </Page>
  );
}
