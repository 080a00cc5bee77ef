import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Stack, Text } from '@mantine/core';
import { MESSAGES, ResetPasswordFormSchema } from '@parla/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { English } from '../../../components/ltr';
import { visibleError } from '../../../lib/form';
import { useResetPassword } from '../api/reset-password';
import { offerToPasswordManager, readRememberedEmail } from '../lib/remembered-credentials';
import { GoToLoginTitle } from './go-to-login-title';
import { NewPasswordFields } from './new-password-fields';

/** SPEC §2 "Reset password": the key comes from the route (/auth/reset-password/{key}). */
export function ResetPasswordForm({ resetKey }: { resetKey: string }) {
  const { t } = useTranslation();
  const reset = useResetPassword();
  const [rememberedEmail] = useState(readRememberedEmail);
  const form = useForm({
    resolver: zodResolver(ResetPasswordFormSchema),
    mode: 'all',
    defaultValues: { password: '', confirmPassword: '', remember: true },
  });
  const error = (name: string) => visibleError(form.formState, name);

  const onSubmit = form.handleSubmit(({ password, remember }) => {
    reset.mutate(
      { key: resetKey, password },
      {
        onSuccess: () => {
          // 'Remember password!': offered to the browser's password manager, never a cookie.
          if (remember && rememberedEmail) void offerToPasswordManager(rememberedEmail, password);
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.reset')}>
      <Stack gap="md">
        {rememberedEmail && (
          // Tells the password manager whose password changes (a hidden username field is the
          // pattern browsers document for password-change forms).
          <input
            type="email"
            name="username"
            autoComplete="username"
            value={rememberedEmail}
            readOnly
            hidden
          />
        )}
        <NewPasswordFields
          label={t('auth.newPassword')}
          password={form.register('password', { deps: ['confirmPassword'] })}
          confirmPassword={form.register('confirmPassword')}
          errors={{ password: error('password'), confirmPassword: error('confirmPassword') }}
        />
        <Checkbox {...form.register('remember')} label={<English>Remember password!</English>} />
        {reset.isSuccess && (
          <FormAlert
            kind="success"
            title={<GoToLoginTitle message={MESSAGES.auth.resetPasswordSuccess} />}
          />
        )}
        {reset.isError && <FormAlert kind="failure" title={reset.error.message} />}
        <Button type="submit" loading={reset.isPending} fullWidth h={44}>
          {t('auth.changePassword')}
        </Button>
        <Text>
          {t('auth.rememberedIt')}{' '}
          <Anchor component={Link} to="/auth/login">
            {t('auth.login')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
