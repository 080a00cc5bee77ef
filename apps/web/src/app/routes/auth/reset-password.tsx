import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Page } from '../../../components/page';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form';

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { key = '' } = useParams();
  return (
    <Page
      size="xs"
      title={t('auth.reset')}
      heading={t('auth.resetHeading')}
      description={t('auth.resetDescription')}
    >
      {/* A new key is a new form: nothing typed for another link carries over. */}
      <ResetPasswordForm key={key} resetKey={key} />
    </Page>
  );
}
