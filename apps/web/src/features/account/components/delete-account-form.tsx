import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { DELETE_CONFIRM_WORD, DeleteAccountFormSchema, MESSAGES } from '@parla/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { clearSession } from '../../../lib/auth';
import { visibleError } from '../../../lib/form';
import { useDeleteAccount } from '../api/delete-account';

/**
 * SPEC §2 "Delete account": 'DELETE' typed in capitals, then the Delete button. On success the
 * session ends and the user goes to /auth/login (SPEC §4).
 */
export function DeleteAccountForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const removal = useDeleteAccount();
  const form = useForm({
    resolver: zodResolver(DeleteAccountFormSchema),
    mode: 'all',
    defaultValues: { confirm: '' },
  });
  const error = (name: string) => visibleError(form.formState, name);
  const onSubmit = form.handleSubmit(() => {
    removal.mutate(undefined, {
      onSuccess: () => {
        clearSession(queryClient);
        void navigate('/auth/login', { replace: true });
      },
    });
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('account.delete')}>
      <Stack gap="md">
        <TextInput
          {...form.register('confirm')}
          label={t('account.typeToConfirm', { word: DELETE_CONFIRM_WORD })}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          error={error('confirm')}
          withAsterisk
        />
        {removal.isError && <FormAlert kind="failure" title={MESSAGES.account.deleteFailed} />}
        <Group justify="flex-end">
          <Button type="submit" color="red.9" loading={removal.isPending} h={44}>
            {t('account.deleteButton')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
