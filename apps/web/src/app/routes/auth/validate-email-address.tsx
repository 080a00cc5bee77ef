import { MESSAGES } from '@parla/contract';
import { useParams } from 'react-router';
import { Page } from '../../../components/page';
import { EmailValidation } from '../../../features/auth/components/email-validation';

export default function ValidateEmailAddressPage() {
  const { key = '' } = useParams();
  return (
    <Page
      size="sm"
      title={MESSAGES.emailValidation.heading}
      heading={MESSAGES.emailValidation.heading}
      description="Confirming the email address of your Parla account."
    >
      <EmailValidation key={key} validationKey={key} />
    </Page>
  );
}
