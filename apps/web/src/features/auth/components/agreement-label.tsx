import { Anchor, VisuallyHidden } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';

function NewTabLink({ to, children }: { to: string; children?: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    // SPEC §2: the terms and privacy pages open in a new tab from the auth forms.
    <Anchor href={to} target="_blank" rel="noopener noreferrer">
      {children}
      <VisuallyHidden> {t('auth.newTab')}</VisuallyHidden>
    </Anchor>
  );
}

/** The label of the terms and privacy agreement checkbox of the login and register forms. */
export function AgreementLabel() {
  return (
    <Trans
      i18nKey="auth.agreement"
      components={{
        terms: <NewTabLink to="/terms-of-services" />,
        privacy: <NewTabLink to="/privacy-policy" />,
      }}
    />
  );
}
