import {
  ContactInputSchema,
  ErrorResponseSchema,
  MESSAGES,
  MessageResponseSchema,
} from '@parla/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.js';
import type { AbuseLimits } from '../../lib/limits.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { renderMail } from '../../lib/mail/template.js';
import { abuseLimit } from '../../plugins/rate-limit.js';
import { createContactMessageRepository } from '../../services/contact/contact-message-repository.js';

export interface MailRoutesOptions {
  /** The messages are stored too, for the operator's console (decision 044). */
  db: Db;
  mailer: Mailer;
  /** CONTACT_EMAIL: where the contact form's messages go. */
  contactEmail: string;
  limits: AbuseLimits;
}

/** The mail to the team: the visitor's words as they wrote them, their address as Reply-To. */
export function contactMail(input: {
  name: string;
  from: string;
  subject: string;
  message: string;
}) {
  const { text, html } = renderMail({
    title: `Contact form: ${input.subject}`,
    intro: [
      `${input.name} <${input.from}> wrote through the contact form:`,
      ...input.message.split(/\r?\n\s*\r?\n/),
    ],
    outro: ['Reply to this mail to answer them.'],
  });
  return { subject: `[Parla contact] ${input.subject}`, text, html };
}

/**
 * POST /mail/contact (SPEC §7): a real mail to CONTACT_EMAIL, limited per IP and per address;
 * the message is stored as well, for the console's Messages.
 */
export const mailRoutes: FastifyPluginAsyncZod<MailRoutesOptions> = async (app, options) => {
  const messages = createContactMessageRepository(options.db);
  app.post(
    '/contact',
    {
      preHandler: abuseLimit(app, 'contact', options.limits),
      schema: {
        tags: ['mail'],
        summary: 'Send a message to the Parla team',
        body: ContactInputSchema,
        response: {
          200: MessageResponseSchema,
          400: ErrorResponseSchema,
          429: ErrorResponseSchema,
          502: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const input = request.body;
      // Header injection is impossible (nodemailer encodes headers), but one line reads better.
      const subject = input.subject.replace(/\s+/g, ' ').trim();
      const name = input.name.replace(/\s+/g, ' ').trim();
      // Stored first: the console has it even when the mail cannot leave.
      await messages.create({ name, email: input.from, subject, message: input.message });
      const mail = contactMail({ ...input, subject, name });
      try {
        await options.mailer.send({ to: options.contactEmail, replyTo: input.from, ...mail });
      } catch (error) {
        request.log.error({ err: error }, 'contact mail not sent');
        return reply.code(502).send({ message: MESSAGES.contact.sendFailed });
      }
      return { message: MESSAGES.contact.sendSuccess };
    },
  );
};
