import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';
import { RegisterForm } from '../../../features/auth/components/register-form';

export default function RegisterPage() {
  const { t } = useTranslation();
  return (
    <Page
      size="xs"
      title={t('auth.register')}
      heading={t('auth.registerHeading')}
      description={t('auth.registerDescription')}
    >
      <RegisterForm />
    </Page>
  );
}
