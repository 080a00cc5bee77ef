import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { ChangePasswordFormSchema, MESSAGES } from '@parla/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert';
import { visibleError } from '../../../lib/form';
import { useChangePassword } from '../api/change-password';

/**
 * SPEC §2 "Change Password": current, new and confirm, and a Change button. The session goes
 * on with the token the server answers (older tokens stop working).
 */
export function ChangePasswordForm({ email }: { email: string }) {
  const { t } = useTranslation();
  const change = useChangePassword();
  const form = useForm({
    resolver: zodResolver(ChangePasswordFormSchema),
    mode: 'all',
    defaultValues: { old_password: '', new_password: '', confirmNewPassword: '' },
  });
  const error = (name: string) => visibleError(form.formState, name);
  const onSubmit = form.handleSubmit(({ old_password, new_password }) => {
    change.mutate({ old_password, new_password }, { onSuccess: () => form.reset() });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.changePassword')}>
      <Stack gap="md">
        {/* Tells the password manager whose password changes. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          {...form.register('old_password')}
          label={t('account.currentPassword')}
          autoComplete="current-password"
          visibilityToggleFocusable
          error={error('old_password')}
          withAsterisk
        />
        <PasswordInput
          {...form.register('new_password', { deps: ['confirmNewPassword'] })}
          label={t('auth.newPassword')}
          autoComplete="new-password"
          visibilityToggleFocusable
          error={error('new_password')}
          withAsterisk
        />
        <PasswordInput
          {...form.register('confirmNewPassword')}
          label={t('account.confirmNewPassword')}
          autoComplete="new-password"
          visibilityToggleFocusable
          error={error('confirmNewPassword')}
          withAsterisk
        />
        {change.isSuccess && (
          <FormAlert kind="success" title={MESSAGES.account.changePasswordSuccess} />
        )}
        {change.isError && <FormAlert kind="failure" title={change.error.message} />}
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending} h={44}>
            {t('account.change')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
