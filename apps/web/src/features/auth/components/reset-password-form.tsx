import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, PasswordInput, Stack, Text } from '@mantine/core';
import { MESSAGES, ResetPasswordFormSchema } from '@parla/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { splitAfterFirstSentence, visibleError } from '../../../lib/form';
import { useResetPassword } from '../api/reset-password';
import { offerToPasswordManager, readRememberedEmail } from '../lib/remembered-credentials';

/** 'Password changed successfully!' followed by the 'Go to login page!' link (SPEC §4). */
function ChangedTitle() {
  const [done, goToLogin] = splitAfterFirstSentence(MESSAGES.auth.resetPasswordSuccess);
  return (
    <>
      {done}
      <Anchor component={Link} to="/auth/login" inherit>
        {goToLogin}
      </Anchor>
    </>
  );
}

/** SPEC §2 "Reset password": the key comes from the route (/auth/reset-password/{key}). */
export function ResetPasswordForm({ resetKey }: { resetKey: string }) {
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
    <form onSubmit={onSubmit} noValidate aria-label="Reset password">
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
        <PasswordInput
          {...form.register('password', { deps: ['confirmPassword'] })}
          label="New password"
          autoComplete="new-password"
          visibilityToggleFocusable
          error={error('password')}
          withAsterisk
        />
        <PasswordInput
          {...form.register('confirmPassword')}
          label="Confirm password"
          autoComplete="new-password"
          visibilityToggleFocusable
          error={error('confirmPassword')}
          withAsterisk
        />
        <Checkbox {...form.register('remember')} label="Remember password!" />
        {reset.isSuccess && <FormAlert kind="success" title={<ChangedTitle />} />}
        {reset.isError && <FormAlert kind="failure" title={reset.error.message} />}
        <Button type="submit" loading={reset.isPending} fullWidth h={44}>
          Change password
        </Button>
        <Text>
          Remembered it?{' '}
          <Anchor component={Link} to="/auth/login">
            Login
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
