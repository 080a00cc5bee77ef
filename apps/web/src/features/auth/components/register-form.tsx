import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import {
  MESSAGES,
  RegisterFormSchema,
  type RegisterForm as RegisterFormValues,
} from '@parla/contract';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { English } from '../../../components/ltr';
import { visibleError } from '../../../lib/form';
import { useRegister } from '../api/register';
import { offerToPasswordManager, rememberEmail } from '../lib/remembered-credentials';
import { AgreementLabel } from './agreement-label';
import { GoToLoginTitle } from './go-to-login-title';
import { NewPasswordFields } from './new-password-fields';

/** SPEC §2 "Register" and §4. */
export function RegisterForm() {
  const { t } = useTranslation();
  const registration = useRegister();
  const form = useForm<RegisterFormValues>({
    resolver: zodResolver(RegisterFormSchema),
    mode: 'all',
    defaultValues: {
      email: '',
      password: '',
      confirmPassword: '',
      remember: true,
      agreement: true,
    },
  });
  const agreed = useWatch({ control: form.control, name: 'agreement' }) === true;
  const error = (name: string) => visibleError(form.formState, name);

  const onSubmit = form.handleSubmit(({ email, password, remember }) => {
    registration.mutate(
      { email, password },
      {
        onSuccess: () => {
          if (remember) {
            rememberEmail(email);
            void offerToPasswordManager(email, password);
          }
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.register')}>
      <Stack gap="md">
        <TextInput
          {...form.register('email')}
          type="email"
          label={t('auth.emailAddress')}
          autoComplete="username"
          error={error('email')}
          withAsterisk
        />
        <NewPasswordFields
          label={t('auth.password')}
          password={form.register('password', { deps: ['confirmPassword'] })}
          confirmPassword={form.register('confirmPassword')}
          errors={{ password: error('password'), confirmPassword: error('confirmPassword') }}
        />
        <Checkbox {...form.register('remember')} label={<English>Remember me!</English>} />
        <Checkbox
          {...form.register('agreement')}
          label={<AgreementLabel />}
          error={error('agreement')}
        />
        {registration.isSuccess && (
          <FormAlert
            kind="success"
            title={<GoToLoginTitle message={MESSAGES.auth.registerSuccess} />}
          >
            {registration.data.message}
          </FormAlert>
        )}
        {registration.isError && <FormAlert kind="failure" title={registration.error.message} />}
        <Button type="submit" loading={registration.isPending} disabled={!agreed} fullWidth h={44}>
          {t('auth.register')}
        </Button>
        <Text>
          {t('auth.haveAccount')}{' '}
          <Anchor component={Link} to="/auth/login">
            {t('auth.login')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
