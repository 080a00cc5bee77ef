import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';

/**
 * A real SMTP server on loopback that receives the product's mails (CONVENTIONS §13). Messages
 * are parsed with mailparser, so tests read them as a mail client would.
 */
export async function startSmtpServer() {
  const received: ParsedMail[] = [];
  const waiters: Array<() => void> = [];
  /** While set, mails are read but not acknowledged: the sender waits, as on a slow server. */
  let gate: Promise<void> | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          await gate;
          received.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Holds every mail unacknowledged until the answered function is called. */
    hold(): () => void {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
    /** The next mail sent to this address (waits for it). */
    async mailTo(address: string, timeoutMs = 10_000): Promise<ParsedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => m.to && JSON.stringify(m.to).includes(address));
        if (mail) {
          received.splice(received.indexOf(mail), 1);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
  };
}
