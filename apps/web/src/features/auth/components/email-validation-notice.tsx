import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteLanguage } from '../../../hooks/use-route-language';

/**
 * Replaces the login page when the address is not validated yet (SPEC §2): the server has just
 * mailed a new validation link, and the contact page helps when it does not arrive.
 */
export function EmailValidationNotice() {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  return (
    <Alert color="yellow" variant="light" role="status" title={t('auth.pleaseValidate')}>
      <Stack gap="xs">
        <Text>{t('auth.validationSent')}</Text>
        <Text>
          <Trans
            i18nKey="auth.noMail"
            components={{ contact: <Anchor component={Link} to={to('/contact')} /> }}
          />
        </Text>
      </Stack>
    </Alert>
  );
}
