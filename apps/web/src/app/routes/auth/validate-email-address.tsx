import { MESSAGES } from '@parla/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Page } from '../../../components/page';
import { EmailValidation } from '../../../features/auth/components/email-validation';

export default function ValidateEmailAddressPage() {
  const { t } = useTranslation();
  const { key = '' } = useParams();
  return (
    <Page
      size="sm"
      title={MESSAGES.emailValidation.heading}
      heading={MESSAGES.emailValidation.heading}
      description={t('auth.validateDescription')}
    >
      <EmailValidation key={key} validationKey={key} />
    </Page>
  );
}
