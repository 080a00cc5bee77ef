import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// URL; unset writes every mail to the outbox folder. */
  smtpUrl: string | undefined;
  from: string;
  /** DATA_DIR/outbox: where mails go when no SMTP server is configured. */
  outboxDir: string;
  log: FastifyBaseLogger;
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

/**
 * Mails are real RFC 5322 messages built by nodemailer either way: sent to the SMTP server, or
 * (the embedded default) written to the outbox as .eml files that any mail client opens, with
 * their links logged so a local operator can follow them.
 */
export function createMailer({ smtpUrl, from, outboxDir, log }: MailerOptions): Mailer {
  if (smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(smtpUrl);
    return {
      async send(mail) {
        const info = await transport.sendMail({ from, ...mail });
        log.info({ to: mail.to, subject: mail.subject, messageId: info.messageId }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      const links = mail.text.match(URL_PATTERN) ?? [];
      log.info({ to: mail.to, subject: mail.subject, file, links }, 'mail written to the outbox');
    },
    close: () => transport.close(),
  };
}
