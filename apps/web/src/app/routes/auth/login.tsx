import { MESSAGES } from '@parla/contract';
import { useState } from 'react';
import { Page } from '../../../components/page';
import { EmailValidationNotice } from '../../../features/auth/components/email-validation-notice';
import { LoginForm } from '../../../features/auth/components/login-form';

/** Login (SPEC §2 "Auth pages"); replaced by the validation notice for an unvalidated address. */
export default function LoginPage() {
  const [notValidated, setNotValidated] = useState(false);
  if (notValidated) {
    return (
      <Page
        size="sm"
        title={MESSAGES.emailValidation.heading}
        heading={MESSAGES.emailValidation.heading}
        description="Your email address is not validated yet: we have sent you a validation link."
      >
        <EmailValidationNotice />
      </Page>
    );
  }
  return (
    <Page
      size="xs"
      title="Login"
      heading="Login"
      description="Sign in to your Parla account to download your audio, keep your file history and manage your plan."
    >
      <LoginForm onNotValidated={() => setNotValidated(true)} />
    </Page>
  );
}
