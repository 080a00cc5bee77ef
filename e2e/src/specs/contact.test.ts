import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { freePort, ROOT, SERVER_ENTRY } from '../harness/server.js';

const session = useBrowser();
const CONTACT_EMAIL = 'team@parla.test';

/**
 * The smallest SMTP server that receives what a real client sends (RFC 5321: greeting, EHLO,
 * MAIL, RCPT, DATA ended by a lone dot, QUIT), on loopback. No TLS is offered, so the
 * product's mailer speaks plain SMTP to it.
 */
function startSmtp(): Promise<{ port: number; mails: ParsedMail[]; server: Server }> {
  const mails: ParsedMail[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          const data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          inData = false;
          void simpleParser(data).then((mail) => mails.push(mail));
          socket.write('250 OK queued\r\n');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-localhost\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 Bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : 0, mails, server });
    }),
  );
}

// A copy of the product that mails through the SMTP server above (the suite's own server
// writes mails to its outbox).
let baseUrl = '';
let child: ChildProcess | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'parla-e2e-contact-'));

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...inject('serverEnv'),
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CONTACT_EMAIL,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the contact server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  smtp?.server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('contact (SPEC §2 "Contact", §4, §5)', () => {
  it('sends a real mail to CONTACT_EMAIL and empties the form', async () => {
    const page = await session.newPage();
    await visit(page, `${baseUrl}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();
    await page.getByText('Talk to the people who build Parla').waitFor();
    const form = page.getByRole('form', { name: 'Send us a message' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Ada Lovelace');
    await form.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    await form.getByRole('textbox', { name: 'Subject' }).fill('A Welsh voice for our museum');
    await form
      .getByRole('textbox', { name: 'Message' })
      .fill('Hello,\n\nDo you have a Welsh voice for our audio guide?\n\nAda');
    await form.getByRole('button', { name: 'Send message' }).click();

    const success = page.getByRole('status').filter({ hasText: 'Message sent successfully!' });
    await success.waitFor();
    expect((await success.textContent())?.trim()).toBe('Message sent successfully!');
    for (const name of ['Name', 'Email', 'Subject', 'Message']) {
      expect(await form.getByRole('textbox', { name }).inputValue()).toBe('');
    }
    await expectAccessible(page);

    await expect.poll(() => smtp.mails.length, { timeout: 10_000 }).toBe(1);
    const mail = smtp.mails[0] as ParsedMail;
    expect(JSON.stringify(mail.to)).toContain(CONTACT_EMAIL);
    expect(mail.subject).toBe('[Parla contact] A Welsh voice for our museum');
    expect(mail.replyTo?.text).toContain('ada@example.com');
    expect(mail.text).toContain('Do you have a Welsh voice for our audio guide?');
    expectNoPageErrors(page);
  });

  it('shows the validation messages word for word and sends nothing', async () => {
    const before = smtp.mails.length;
    const page = await session.newPage();
    await visit(page, `${baseUrl}/contact`);
    const form = page.getByRole('form', { name: 'Send us a message' });
    await form.getByRole('button', { name: 'Send message' }).click();
    for (const message of ['Name is required.', 'Email is required.', 'Subject is required.']) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    await form.getByRole('textbox', { name: 'Name' }).fill('Al');
    await form.getByRole('textbox', { name: 'Email' }).fill('ada@');
    await form.getByRole('textbox', { name: 'Subject' }).fill('Hi');
    await form.getByRole('textbox', { name: 'Message' }).fill('Too short');
    for (const message of [
      'Name must be at least 3 characters long.',
      'Email is incorrect.',
      'Subject must be at least 3 characters long.',
      'Message must be at least 10 characters long.',
    ]) {
      await form.getByText(message, { exact: true }).waitFor();
    }
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Send message' }).click();
    await page.waitForTimeout(500);
    expect(smtp.mails.length).toBe(before);
    expect(await page.getByRole('status').filter({ hasText: 'Message sent' }).count()).toBe(0);
  });

  it('shows the contact page in Arabic, right to left', async () => {
    const page = await session.newPage();
    await visit(page, `${baseUrl}/ar/contact`);
    await page.getByRole('heading', { level: 1, name: 'اتصل بنا' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.getByRole('form', { name: 'أرسل لنا رسالة' }).waitFor();
    await expectAccessible(page);
  });
});
