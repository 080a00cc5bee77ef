import { MESSAGES } from '@parla/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';
import { EmailValidationNotice } from '../../../features/auth/components/email-validation-notice';
import { LoginForm } from '../../../features/auth/components/login-form';

/** Login (SPEC §2 "Auth pages"); replaced by the validation notice for an unvalidated address. */
export default function LoginPage() {
  const { t } = useTranslation();
  const [notValidated, setNotValidated] = useState(false);
  if (notValidated) {
    return (
      <Page
        size="sm"
        title={MESSAGES.emailValidation.heading}
        heading={MESSAGES.emailValidation.heading}
        description={t('auth.notValidatedDescription')}
      >
        <EmailValidationNotice />
      </Page>
    );
  }
  return (
    <Page
      size="xs"
      title={t('auth.login')}
      heading={t('auth.login')}
      description={t('auth.loginDescription')}
    >
      <LoginForm onNotValidated={() => setNotValidated(true)} />
    </Page>
  );
}
