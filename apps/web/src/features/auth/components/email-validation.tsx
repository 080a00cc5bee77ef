import { Alert, Anchor, Group, Loader, Stack, Text } from '@mantine/core';
import { DELAYS_MS, MESSAGES } from '@parla/contract';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { English } from '../../../components/ltr';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { useValidateEmailAddress } from '../api/validate-email-address';
import { useStartSession } from '../hooks/use-start-session';

/**
 * SPEC §2 "Email validation" failure text, with its words 'login' and 'contact us' as the
 * links it speaks of; the text stays word for word.
 */
function FailedText() {
  const text = MESSAGES.emailValidation.failed;
  const login = text.indexOf('login');
  const contact = text.indexOf('contact us');
  return (
    <Text>
      {text.slice(0, login)}
      <Anchor component={Link} to="/auth/login" inherit>
        login
      </Anchor>
      {text.slice(login + 'login'.length, contact)}
      <Anchor component={Link} to="/contact" inherit>
        contact us
      </Anchor>
      {text.slice(contact + 'contact us'.length)}
    </Text>
  );
}

/**
 * Validates the address of the mailed link: the request is sent after 3 seconds (SPEC §2, §9);
 * on success the session starts and the user goes to /convertor.
 */
export function EmailValidation({ validationKey }: { validationKey: string }) {
  const navigate = useNavigate();
  // The convertor in the visitor's language (a string: the effect below runs once per key).
  const home = useRouteLanguage().to('/convertor');
  const startSession = useStartSession();
  const validation = useValidateEmailAddress();
  const { mutate } = validation;
  // The key is single-use: send it once per key, whatever re-renders or effects re-run.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (sentFor.current === validationKey) return;
      sentFor.current = validationKey;
      mutate(validationKey, {
        onSuccess: (session) => {
          startSession(session);
          void navigate(home, { replace: true });
        },
      });
    }, DELAYS_MS.emailValidation);
    return () => window.clearTimeout(timer);
  }, [validationKey, mutate, startSession, navigate, home]);

  if (validation.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <FailedText />
      </Alert>
    );
  }
  return (
    <Stack gap="md" aria-live="polite">
      <Text>
        <English>{MESSAGES.emailValidation.waiting}</English>
      </Text>
      <Group gap="sm">
        <Loader size="sm" aria-hidden />
        <Text>
          <English>{MESSAGES.emailValidation.patience}</English>
        </Text>
      </Group>
    </Stack>
  );
}
