import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { inject } from 'vitest';

export interface ReceivedMail {
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link of the plain-text part, in order. */
  links: string[];
}

/**
 * Waits for the product's mail to an address. The server under test runs with its embedded
 * default (no SMTP_URL), so each mail is a real RFC 5322 message in DATA_DIR/outbox, parsed
 * here as a mail client would.
 */
export async function waitForMail(
  to: string,
  subject: RegExp,
  { timeoutMs = 15_000 } = {},
): Promise<ReceivedMail> {
  const outbox = path.join(inject('serverEnv').DATA_DIR ?? '', 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = await readdir(outbox).catch(() => [] as string[]);
    // File names start with their ISO time: the newest matching mail wins.
    for (const file of files
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .reverse()) {
      const mail = await simpleParser(await readFile(path.join(outbox, file)));
      const recipients = [mail.to ?? []].flat().flatMap((address) => address.value);
      if (!recipients.some((r) => r.address === to) || !subject.test(mail.subject ?? '')) {
        continue;
      }
      const text = mail.text ?? '';
      return {
        subject: mail.subject ?? '',
        text,
        html: typeof mail.html === 'string' ? mail.html : '',
        links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail to ${to} with a subject matching ${subject} within ${timeoutMs} ms.`);
}
