import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { LoginFormSchema, type LoginForm as LoginFormValues } from '@parla/contract';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { English } from '../../../components/ltr';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { visibleError } from '../../../lib/form';
import { useLogin } from '../api/login';
import { useStartSession } from '../hooks/use-start-session';
import {
  forgetEmail,
  offerToPasswordManager,
  readRememberedEmail,
  rememberEmail,
} from '../lib/remembered-credentials';
import { AgreementLabel } from './agreement-label';

interface LoginFormProps {
  /** The address is not validated yet: the page shows the validation notice (SPEC §2). */
  onNotValidated: () => void;
}

/** SPEC §2 "Login" and §4: on success the session is kept and the user goes to /convertor. */
export function LoginForm({ onNotValidated }: LoginFormProps) {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const startSession = useStartSession();
  const login = useLogin();
  const [rememberedEmail] = useState(readRememberedEmail);
  const form = useForm<LoginFormValues>({
    resolver: zodResolver(LoginFormSchema),
    mode: 'all',
    defaultValues: { email: rememberedEmail ?? '', password: '', remember: true, agreement: true },
  });
  const agreed = useWatch({ control: form.control, name: 'agreement' }) === true;
  const error = (name: string) => visibleError(form.formState, name);

  const onSubmit = form.handleSubmit(({ email, password, remember }) => {
    login.mutate(
      { email, password },
      {
        onSuccess: (answer) => {
          if (!answer.has_email_address_validated) {
            onNotValidated();
            return;
          }
          startSession(answer);
          if (remember) {
            rememberEmail(email);
            void offerToPasswordManager(email, password);
          } else {
            forgetEmail();
          }
          void navigate(to('/convertor'));
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.login')}>
      <Stack gap="md">
        <TextInput
          {...form.register('email')}
          type="email"
          label={t('auth.emailAddress')}
          autoComplete="username"
          error={error('email')}
          withAsterisk
        />
        <PasswordInput
          {...form.register('password')}
          label={t('auth.password')}
          autoComplete="current-password"
          visibilityToggleFocusable
          error={error('password')}
          withAsterisk
        />
        <Checkbox {...form.register('remember')} label={<English>Remember me!</English>} />
        <Checkbox
          {...form.register('agreement')}
          label={<AgreementLabel />}
          error={error('agreement')}
        />
        {login.isError && <FormAlert kind="failure" title={login.error.message} />}
        <Button type="submit" loading={login.isPending} disabled={!agreed} fullWidth h={44}>
          {t('auth.login')}
        </Button>
        <Group justify="space-between" gap="xs">
          <Anchor component={Link} to="/auth/forgotten-password">
            <English>Forgot password?</English>
          </Anchor>
          <Text component="span">
            {t('auth.noAccount')}{' '}
            <Anchor component={Link} to="/auth/register">
              <English>Sign Up Now</English>
            </Anchor>
          </Text>
        </Group>
      </Stack>
    </form>
  );
}
