import * as z from 'zod/mini';
import { MIN_LENGTHS } from './constants.js';
import { ContactEmailSchema, requiredText } from './fields.js';
import { MESSAGES } from './messages.js';

// POST /mail/contact -------------------------------------------------------------------------

/** The contact form sends exactly this body; `from` is the visitor's email address. */
export const ContactInputSchema = z.object({
  name: requiredText(MESSAGES.contact.nameRequired, MIN_LENGTHS.name, MESSAGES.contact.nameMin),
  from: ContactEmailSchema,
  subject: requiredText(
    MESSAGES.contact.subjectRequired,
    MIN_LENGTHS.contactSubject,
    MESSAGES.contact.subjectMin,
  ),
  message: requiredText(
    MESSAGES.contact.messageRequired,
    MIN_LENGTHS.contactMessage,
    MESSAGES.contact.messageMin,
  ),
});
export type ContactInput = z.infer<typeof ContactInputSchema>;
export const ContactFormSchema = ContactInputSchema;
export type ContactForm = ContactInput;
