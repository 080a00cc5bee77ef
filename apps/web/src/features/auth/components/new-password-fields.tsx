import { PasswordInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

interface NewPasswordFieldsProps {
  /** "Password" on the register form, "New password" on the reset form. */
  label: string;
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
  errors: { password?: string | undefined; confirmPassword?: string | undefined };
}

/**
 * A new password and its confirmation (register and reset forms): marked for the password
 * manager as new, each with its own message.
 */
export function NewPasswordFields({
  label,
  password,
  confirmPassword,
  errors,
}: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordInput
        {...password}
        label={label}
        autoComplete="new-password"
        visibilityToggleFocusable
        error={errors.password}
        withAsterisk
      />
      <PasswordInput
        {...confirmPassword}
        label={t('auth.confirmPassword')}
        autoComplete="new-password"
        visibilityToggleFocusable
        error={errors.confirmPassword}
        withAsterisk
      />
    </>
  );
}
