import { MESSAGES } from '@parla/contract';
import { describe, expect, it } from 'vitest';
import { startSmtpServer } from '../../../test/smtp.js';
import {
  createTestApp,
  TEST_DATABASE_KIND,
  testConfig,
  uniqueEmail,
} from '../../../test/test-app.js';

const CONTACT_EMAIL = 'team@parla.test';
const smtp = await startSmtpServer();
const app = await createTestApp({
  config: testConfig({ SMTP_URL: smtp.url, CONTACT_EMAIL }),
  abuseLimits: { perIp: 100, perAddress: 3, timeWindowMs: 60_000 },
});
const contact = (payload: object) =>
  app.inject({ method: 'POST', url: '/api/mail/contact', payload });

describe(`POST /api/mail/contact (${TEST_DATABASE_KIND})`, () => {
  it('delivers the message to CONTACT_EMAIL through SMTP, replying to the visitor', async () => {
    const from = uniqueEmail('visitor');
    const response = await contact({
      name: '  Ada   Lovelace ',
      from,
      subject: 'Voices for\r\nBcc: someone@example.com a museum guide',
      message: 'Hello team,\n\nDo you have a Welsh voice for our audio guide?\n\nThanks, Ada',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: MESSAGES.contact.sendSuccess });
    const mail = await smtp.mailTo(CONTACT_EMAIL);
    // The subject stays one line: nothing can be smuggled into the headers.
    expect(mail.subject).toBe('[Parla contact] Voices for Bcc: someone@example.com a museum guide');
    expect(mail.bcc).toBeUndefined();
    expect(mail.replyTo?.text).toContain(from);
    expect(mail.text).toContain(`Ada Lovelace <${from}> wrote through the contact form:`);
    expect(mail.text).toContain('Do you have a Welsh voice for our audio guide?');
    expect(mail.html).toContain('Do you have a Welsh voice for our audio guide?');
  });

  it("keeps the visitor's words as text: HTML in a message is not rendered", async () => {
    const from = uniqueEmail('markup');
    const response = await contact({
      name: 'Mallory <b>Bold</b>',
      from,
      subject: 'Markup',
      message: '<script>alert(1)</script><a href="javascript:alert(2)">click me</a>',
    });
    expect(response.statusCode).toBe(200);
    const mail = await smtp.mailTo(CONTACT_EMAIL);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<a href="javascript:');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.text).toContain('<script>alert(1)</script>');
  });

  it('refuses invalid input with the messages of SPEC §5 and sends nothing', async () => {
    const before = smtp.received.length;
    const empty = await contact({ name: '', from: '', subject: '', message: '' });
    expect(empty.statusCode).toBe(400);
    const messages = (empty.json() as { errors: Array<{ message: string }> }).errors.map(
      (error) => error.message,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        MESSAGES.contact.nameRequired,
        MESSAGES.contact.emailRequired,
        MESSAGES.contact.subjectRequired,
      ]),
    );
    const short = await contact({
      name: 'Al',
      from: 'not-an-address',
      subject: 'Hi',
      message: 'Too short',
    });
    expect(short.statusCode).toBe(400);
    const shortMessages = (short.json() as { errors: Array<{ message: string }> }).errors.map(
      (error) => error.message,
    );
    expect(shortMessages).toEqual([
      MESSAGES.contact.nameMin,
      MESSAGES.contact.emailInvalid,
      MESSAGES.contact.subjectMin,
      MESSAGES.contact.messageMin,
    ]);
    expect(smtp.received.length).toBe(before);
  });

  it('limits how often one address may write', async () => {
    const from = uniqueEmail('eager');
    const payload = {
      name: 'Eager Visitor',
      from,
      subject: 'Again',
      message: 'One more message, please read it.',
    };
    for (let count = 0; count < 3; count += 1) {
      expect((await contact(payload)).statusCode).toBe(200);
    }
    const limited = await contact(payload);
    expect(limited.statusCode).toBe(429);
    expect((limited.json() as { message: string }).message).toMatch(/^Too many requests/);
  });
});

describe(`contact mail failure (${TEST_DATABASE_KIND})`, () => {
  it("answers 502 with 'Failed to send this message!Try again!' when SMTP is down", async () => {
    // Port 9 on loopback: nothing listens, the connection is refused.
    const broken = await createTestApp({ config: testConfig({ SMTP_URL: 'smtp://127.0.0.1:9' }) });
    const response = await broken.inject({
      method: 'POST',
      url: '/api/mail/contact',
      payload: {
        name: 'Grace Hopper',
        from: uniqueEmail('grace'),
        subject: 'Hello',
        message: 'Is anybody there at all?',
      },
    });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({ message: MESSAGES.contact.sendFailed });
  });
});
