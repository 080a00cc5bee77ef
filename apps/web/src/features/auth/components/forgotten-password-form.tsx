import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { ForgottenPasswordFormSchema, MESSAGES } from '@parla/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { English } from '../../../components/ltr';
import { visibleError } from '../../../lib/form';
import { useForgottenPassword } from '../api/forgotten-password';
import { readRememberedEmail } from '../lib/remembered-credentials';

/** SPEC §2 "Forgotten password" and §4: 'Email sent successfully!' or 'Email sent unsuccessfully!'. */
export function ForgottenPasswordForm() {
  const { t } = useTranslation();
  const request = useForgottenPassword();
  const [rememberedEmail] = useState(readRememberedEmail);
  const form = useForm({
    resolver: zodResolver(ForgottenPasswordFormSchema),
    mode: 'all',
    defaultValues: { email: rememberedEmail ?? '' },
  });
  const error = (name: string) => visibleError(form.formState, name);
  const onSubmit = form.handleSubmit((values) => request.mutate(values));
  const failure = request.error?.message;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('auth.forgotten')}>
      <Stack gap="md">
        <TextInput
          {...form.register('email')}
          type="email"
          label={t('auth.emailAddress')}
          autoComplete="email"
          error={error('email')}
          withAsterisk
        />
        {request.isSuccess && (
          <FormAlert kind="success" title={MESSAGES.auth.forgottenPasswordSuccess}>
            {request.data.message}
          </FormAlert>
        )}
        {request.isError && (
          <FormAlert kind="failure" title={MESSAGES.auth.forgottenPasswordFailed}>
            {/* The server's reason (too many requests, …) when it gave one. */}
            {failure !== MESSAGES.auth.forgottenPasswordFailed ? failure : null}
          </FormAlert>
        )}
        <Button type="submit" loading={request.isPending} fullWidth h={44}>
          {t('auth.sendResetLink')}
        </Button>
        <Text>
          {t('auth.noAccount')}{' '}
          <Anchor component={Link} to="/auth/register">
            <English>Sign Up Now</English>
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
