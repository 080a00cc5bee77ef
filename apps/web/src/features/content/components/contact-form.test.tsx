import { MESSAGES } from '@parla/contract';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import ContactPage from '../../../app/routes/contact';
import {
  interceptFetch,
  jsonResponse,
  type RecordedCall,
  renderAt,
  restoreFetch,
} from '../../../test/render';

afterEach(() => {
  cleanup();
  restoreFetch();
});

const CONTACT_PAGE = {
  translations: [{ name: 'English', code: 'default', link: '/contact' }],
  language: { name: 'English', code: 'default' },
  link: '/contact',
  sections: [
    {
      id: 'header',
      visibility: 'visible',
      tags: [
        { type: 'title', content: 'Contact' },
        { type: 'text', content: 'Questions? Write to the Parla team.' },
      ],
    },
    {
      id: 'intro',
      visibility: 'visible',
      tags: [
        { type: 'title', content: 'Talk to the people who build Parla' },
        { type: 'text', content: 'A person reads every message.' },
      ],
    },
  ],
};

/** The server at the network boundary: the page content, the SEO call and the contact call. */
function server(contactAnswer: () => Response) {
  return interceptFetch((call: RecordedCall) => {
    if (call.url.startsWith('/api/content/pages/default/contact')) {
      return jsonResponse(200, CONTACT_PAGE);
    }
    if (call.url.startsWith('/api/seo/meta')) return jsonResponse(404, { message: 'none' });
    if (call.url === '/api/mail/contact') return contactAnswer();
    return jsonResponse(404, { message: `unexpected ${call.url}` });
  });
}

function renderPage() {
  renderAt('/contact', '/contact', <ContactPage />);
}

async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^Name/), 'Ada Lovelace');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Subject/), 'Welsh voices');
  await user.type(screen.getByLabelText(/^Message/), 'Do you have a Welsh voice for our guide?');
}

const contactCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url === '/api/mail/contact');

describe('contact form (SPEC §2 Contact, §4, §5)', () => {
  it('shows the page text from the content service', async () => {
    server(() => jsonResponse(200, { message: 'ok' }));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact' })).toBeTruthy();
    expect(await screen.findByText('Talk to the people who build Parla')).toBeTruthy();
    expect(screen.getByText('A person reads every message.')).toBeTruthy();
  });

  it("says 'Message sent successfully!' and empties the form", async () => {
    const user = userEvent.setup();
    const { calls } = server(() => jsonResponse(200, { message: MESSAGES.contact.sendSuccess }));
    renderPage();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    const alert = await screen.findByRole('status');
    expect(alert.textContent).toBe(MESSAGES.contact.sendSuccess);
    expect(contactCalls(calls)).toEqual([
      {
        method: 'POST',
        url: '/api/mail/contact',
        body: {
          name: 'Ada Lovelace',
          from: 'ada@example.com',
          subject: 'Welsh voices',
          message: 'Do you have a Welsh voice for our guide?',
        },
      },
    ]);
    await waitFor(() =>
      expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe(''),
    );
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/^Subject/) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('textbox', { name: /^Message/ }) as HTMLTextAreaElement).value).toBe(
      '',
    );
    // An empty form after success shows no errors until it is used again.
    expect(screen.queryByText(MESSAGES.contact.nameRequired)).toBeNull();
  });

  it("says 'Failed to send this message!Try again!' when the server fails", async () => {
    const user = userEvent.setup();
    server(() => jsonResponse(502, { message: MESSAGES.contact.sendFailed }));
    renderPage();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.contact.sendFailed);
    // The visitor's words are kept, to try again.
    expect((screen.getByLabelText(/^Subject/) as HTMLInputElement).value).toBe('Welsh voices');
  });

  it('adds the reason the server gave, such as too many messages', async () => {
    const user = userEvent.setup();
    server(() =>
      jsonResponse(429, { message: 'Too many requests. Please try again in 60 seconds.' }),
    );
    renderPage();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      `${MESSAGES.contact.sendFailed}Too many requests. Please try again in 60 seconds.`,
    );
  });

  it('shows the required messages on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const { calls } = server(() => jsonResponse(200, { message: 'ok' }));
    renderPage();
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    for (const message of [
      MESSAGES.contact.nameRequired,
      MESSAGES.contact.emailRequired,
      MESSAGES.contact.subjectRequired,
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(contactCalls(calls)).toEqual([]);
  });

  it('shows the length and format messages word for word', async () => {
    const user = userEvent.setup();
    const { calls } = server(() => jsonResponse(200, { message: 'ok' }));
    renderPage();
    await user.type(screen.getByLabelText(/^Name/), 'Al');
    await user.type(screen.getByLabelText(/^Email/), 'not-an-address');
    await user.type(screen.getByLabelText(/^Subject/), 'Hi');
    await user.type(screen.getByLabelText(/^Message/), 'Too short');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText(MESSAGES.contact.nameMin)).toBeTruthy();
    expect(screen.getByText(MESSAGES.contact.emailInvalid)).toBeTruthy();
    expect(screen.getByText(MESSAGES.contact.subjectMin)).toBeTruthy();
    expect(screen.getByText(MESSAGES.contact.messageMin)).toBeTruthy();
    expect(contactCalls(calls)).toEqual([]);
  });
});
