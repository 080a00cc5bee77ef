import { Page } from '../../../components/page';
import { RegisterForm } from '../../../features/auth/components/register-form';

export default function RegisterPage() {
  return (
    <Page
      size="xs"
      title="Register"
      heading="Create your account"
      description="Register with your email address to save your settings, buy characters and download your audio."
    >
      <RegisterForm />
    </Page>
  );
}
