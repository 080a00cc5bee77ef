import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { ChangeEmailInputSchema, MESSAGES } from '@parla/contract';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form-alert';
import { visibleError } from '../../../lib/form';
import { useChangeEmail } from '../api/change-email';

/** SPEC §2 "Change Email": one field, a Change button, a success or failure alert. */
export function ChangeEmailForm() {
  const { t } = useTranslation();
  const change = useChangeEmail();
  const form = useForm({
    resolver: zodResolver(ChangeEmailInputSchema),
    mode: 'all',
    defaultValues: { email: '' },
  });
  const error = (name: string) => visibleError(form.formState, name);
  const onSubmit = form.handleSubmit((values) => {
    change.mutate(values, { onSuccess: () => form.reset() });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.changeEmail')}>
      <Stack gap="md">
        <TextInput
          {...form.register('email')}
          type="email"
          label={t('account.newEmail')}
          autoComplete="email"
          error={error('email')}
          withAsterisk
        />
        {change.isSuccess && (
          // The server explains that the new address is used once its link is opened.
          <FormAlert kind="success" title={MESSAGES.account.changeEmailSuccess}>
            {change.data.message}
          </FormAlert>
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
