import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Textarea, TextInput } from '@mantine/core';
import { type ContactInput, ContactInputSchema, MESSAGES } from '@parla/contract';
import { useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert';
import { visibleError } from '../../../lib/form';
import { useSendContact } from '../api/send-contact';
import type { ContentUiText } from '../lib/ui-text';

const EMPTY: ContactInput = { name: '', from: '', subject: '', message: '' };

/**
 * SPEC §2 "Contact", §4 and §5: name (3+), email, subject (3+) and message (10+), with the
 * messages word for word; 'Message sent successfully!' and an empty form on success,
 * 'Failed to send this message!Try again!' on failure.
 */
export function ContactForm({ text }: { text: ContentUiText['contactForm'] }) {
  const send = useSendContact();
  const form = useForm<ContactInput>({
    resolver: zodResolver(ContactInputSchema),
    mode: 'all',
    defaultValues: EMPTY,
  });
  const error = (name: keyof ContactInput) => visibleError(form.formState, name);
  const onSubmit = form.handleSubmit((values) =>
    send.mutate(values, { onSuccess: () => form.reset(EMPTY) }),
  );
  const failure = send.error?.message;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={text.title}>
      <Stack gap="md">
        <TextInput
          {...form.register('name')}
          label={text.name}
          autoComplete="name"
          error={error('name')}
          withAsterisk
        />
        <TextInput
          {...form.register('from')}
          type="email"
          label={text.email}
          autoComplete="email"
          error={error('from')}
          withAsterisk
        />
        <TextInput
          {...form.register('subject')}
          label={text.subject}
          error={error('subject')}
          withAsterisk
        />
        <Textarea
          {...form.register('message')}
          label={text.message}
          rows={6}
          error={error('message')}
          withAsterisk
        />
        {send.isSuccess && <FormAlert kind="success" title={MESSAGES.contact.sendSuccess} />}
        {send.isError && (
          <FormAlert kind="failure" title={MESSAGES.contact.sendFailed}>
            {/* The server's reason (too many messages, …) when it gave one. */}
            {failure !== MESSAGES.contact.sendFailed ? failure : null}
          </FormAlert>
        )}
        <Button type="submit" loading={send.isPending} h={44} style={{ alignSelf: 'flex-start' }}>
          {text.send}
        </Button>
      </Stack>
    </form>
  );
}
