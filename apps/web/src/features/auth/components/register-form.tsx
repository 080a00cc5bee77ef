import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  MESSAGES,
  RegisterFormSchema,
  type RegisterForm as RegisterFormValues,
} from '@parla/contract';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { splitAfterFirstSentence, visibleError } from '../../../lib/form';
import { useRegister } from '../api/register';
import { offerToPasswordManager, rememberEmail } from '../lib/remembered-credentials';
import { AgreementLabel } from './agreement-label';

/** 'Register successfully!' followed by the 'Go to login page!' link (SPEC §4). */
function RegisteredTitle() {
  const [done, goToLogin] = splitAfterFirstSentence(MESSAGES.auth.registerSuccess);
  return (
    <>
      {done}
      <Anchor component={Link} to="/auth/login" inherit>
        {goToLogin}
      </Anchor>
    </>
  );
}

/** SPEC §2 "Register" and §4. */
export function RegisterForm() {
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
    <form onSubmit={onSubmit} noValidate aria-label="Register">
      <Stack gap="md">
        <TextInput
          {...form.register('email')}
          type="email"
          label="Email address"
          autoComplete="username"
          error={error('email')}
          withAsterisk
        />
        <PasswordInput
          {...form.register('password', { deps: ['confirmPassword'] })}
          label="Password"
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
        <Checkbox {...form.register('remember')} label="Remember me!" />
        <Checkbox
          {...form.register('agreement')}
          label={<AgreementLabel />}
          error={error('agreement')}
        />
        {registration.isSuccess && (
          <FormAlert kind="success" title={<RegisteredTitle />}>
            {registration.data.message}
          </FormAlert>
        )}
        {registration.isError && <FormAlert kind="failure" title={registration.error.message} />}
        <Button type="submit" loading={registration.isPending} disabled={!agreed} fullWidth h={44}>
          Register
        </Button>
        <Text>
          Already have an account?{' '}
          <Anchor component={Link} to="/auth/login">
            Login
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
