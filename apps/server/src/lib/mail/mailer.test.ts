import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../../test/smtp.js';
import { createMailer } from './mailer.js';
import { renderMail } from './template.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-mail-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const log = pino({ level: 'silent' });

const content = renderMail({
  title: 'Confirm your email address',
  intro: ['Welcome to Parla & friends <3'],
  action: {
    label: 'Confirm my address',
    url: 'http://localhost:3000/auth/validate-email-address/abc123',
  },
  outro: ['The link expires in 24 hours.'],
});

describe('mail', () => {
  it('renders a text and an HTML part with the same words, escaping the HTML', () => {
    expect(content.text).toContain('Welcome to Parla & friends <3');
    expect(content.text).toContain(
      'Confirm my address: http://localhost:3000/auth/validate-email-address/abc123',
    );
    expect(content.html).toContain('Welcome to Parla &amp; friends &lt;3');
    expect(content.html).toContain(
      'href="http://localhost:3000/auth/validate-email-address/abc123"',
    );
    expect(content.html).not.toContain('<3');
  });

  it('without SMTP_URL writes a complete .eml message to the outbox', async () => {
    const outboxDir = path.join(dataDir, 'outbox');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Parla <no-reply@parla.test>',
      outboxDir,
      log,
    });
    await mailer.send({ to: 'ada@example.com', subject: 'Confirm your email address', ...content });
    mailer.close();
    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const parsed = await simpleParser(readFileSync(path.join(outboxDir, files[0] ?? '')));
    expect(parsed.subject).toBe('Confirm your email address');
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Parla', address: 'no-reply@parla.test' });
    expect(parsed.text).toContain('/auth/validate-email-address/abc123');
    expect(parsed.html).toContain('Confirm my address');
  });

  it('with SMTP_URL delivers through a real SMTP server', async () => {
    const smtp = await startSmtpServer();
    const mailer = createMailer({
      smtpUrl: smtp.url,
      from: 'Parla <no-reply@parla.test>',
      outboxDir: path.join(dataDir, 'unused'),
      log,
    });
    await mailer.send({
      to: 'grace@example.com',
      subject: 'Hello',
      replyTo: 'x@example.com',
      ...content,
    });
    mailer.close();
    const mail = await smtp.mailTo('grace@example.com');
    expect(mail.subject).toBe('Hello');
    expect(mail.replyTo?.text).toBe('x@example.com');
    expect(mail.text).toContain('The link expires in 24 hours.');
    expect(mail.html).toContain('Confirm your email address');
  });
});
