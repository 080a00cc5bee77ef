import {
  type ContactInput,
  MESSAGES,
  type MessageResponse,
  MessageResponseSchema,
} from '@parla/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /mail/contact (SPEC §7): {name, from, subject, message} to the Parla team. */
export function sendContact(input: ContactInput): Promise<MessageResponse> {
  return api.post('/mail/contact', input, {
    schema: MessageResponseSchema,
    fallbackMessage: MESSAGES.contact.sendFailed,
  });
}

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
