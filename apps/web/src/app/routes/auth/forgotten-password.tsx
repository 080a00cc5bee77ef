import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';
import { ForgottenPasswordForm } from '../../../features/auth/components/forgotten-password-form';

export default function ForgottenPasswordPage() {
  const { t } = useTranslation();
  return (
    <Page
      size="xs"
      title={t('auth.forgotten')}
      heading={t('auth.forgotten')}
      description={t('auth.forgottenDescription')}
    >
      <ForgottenPasswordForm />
    </Page>
  );
}
