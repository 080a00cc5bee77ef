import { LEXICON_MESSAGES } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';
import { PronunciationsPage } from './pronunciations-page';

signedInForEachTest();

const BRANDS = {
  name: 'Brands',
  language: 'en-US',
  default: true,
  default_position: 1,
  created_at: '2026-11-27T00:00:00Z',
  updated_at: '2026-11-27T00:00:00Z',
};
const ENTRY = {
  grapheme: 'Parla',
  case_sensitive: false,
  whole_word: true,
  alias: 'par la',
  phoneme: null,
  alphabet: null,
  language: null,
};

/** The message a field shows (Mantine ties it with aria-describedby). */
function describedBy(field: HTMLElement): string {
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the Pronunciations page (issue 32, item 3)', { timeout: 30_000 }, () => {
  it("edits a lexicon's entries and shows the server's message beside the cell it names", async () => {
    const user = userEvent.setup();
    const { calls } = interceptFetch((call) => {
      if (call.url === '/api/lexicons') {
        return jsonResponse(200, {
          lexicons: [{ ...BRANDS, entries: 1 }],
          limits: { lexicons: 1, entries: 25 },
        });
      }
      if (call.url === '/api/lexicons/Brands' && call.method === 'GET') {
        return jsonResponse(200, { ...BRANDS, entries: [ENTRY] });
      }
      if (call.url === '/api/lexicons/Brands' && call.method === 'PUT') {
        return jsonResponse(400, {
          message: LEXICON_MESSAGES.graphemeRepeated('parla'),
          errors: [
            { path: 'entries.1.grapheme', message: LEXICON_MESSAGES.graphemeRepeated('parla') },
          ],
        });
      }
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    renderAt('/pronunciations', '/pronunciations', <PronunciationsPage language="en" />);
    const card = await screen.findByRole('article', { name: 'Brands' });
    within(card).getByText('1 entry');
    await user.click(within(card).getByRole('button', { name: 'Edit entries of Brands' }));
    const said = await within(card).findByRole<HTMLInputElement>('textbox', {
      name: 'How “Parla” is said',
    });
    expect(said.value).toBe('par la');

    // An empty word: the contract's message beside it, nothing sent.
    await user.click(within(card).getByRole('button', { name: 'Add entry' }));
    await user.click(within(card).getByRole('button', { name: 'Save changes' }));
    const word = within(card).getByRole('textbox', { name: 'Word of entry 2' });
    expect(describedBy(word)).toContain(LEXICON_MESSAGES.graphemeRequired);
    expect(calls.filter((call) => call.method === 'PUT')).toEqual([]);

    // The server's refusal of the second entry goes under its word.
    await user.type(word, 'parla');
    await user.type(within(card).getByRole('textbox', { name: 'How “parla” is said' }), 'x');
    await user.click(within(card).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(describedBy(word)).toContain(LEXICON_MESSAGES.graphemeRepeated('parla')),
    );
    const sent = calls.find((call) => call.method === 'PUT');
    expect(sent?.body).toEqual({
      language: 'en-US',
      default: true,
      entries: [{ ...ENTRY }, { ...ENTRY, grapheme: 'parla', alias: 'x' }],
    });
  });

  it('renames a lexicon in one call, and shows why a taken name is refused', async () => {
    const user = userEvent.setup();
    let name = 'Brands';
    const { calls } = interceptFetch((call) => {
      if (call.url === '/api/lexicons') {
        return jsonResponse(200, {
          lexicons: [{ ...BRANDS, name, entries: 1 }],
          limits: { lexicons: 1, entries: 25 },
        });
      }
      if (call.url === '/api/lexicons/Brands/rename' && call.method === 'POST') {
        const to = (call.body as { name: string }).name;
        if (to === 'Names') return jsonResponse(409, { message: LEXICON_MESSAGES.nameTaken(to) });
        name = to;
        return jsonResponse(200, { ...BRANDS, name, entries: [ENTRY] });
      }
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    renderAt('/pronunciations', '/pronunciations', <PronunciationsPage language="en" />);
    const card = await screen.findByRole('article', { name: 'Brands' });
    await user.click(within(card).getByRole('button', { name: 'Rename Brands' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Brands' });
    const field = within(dialog).getByRole('textbox', { name: 'New name' });
    await user.clear(field);
    await user.type(field, 'Names');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await waitFor(() => expect(describedBy(field)).toContain(LEXICON_MESSAGES.nameTaken('Names')));

    await user.clear(field);
    await user.type(field, 'People');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await screen.findByRole('article', { name: 'People' });
    expect(screen.queryByRole('article', { name: 'Brands' })).toBeNull();
    // One call per try: no copy under the new name, no delete of the old one.
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([
      { method: 'POST', url: '/api/lexicons/Brands/rename', body: { name: 'Names' } },
      { method: 'POST', url: '/api/lexicons/Brands/rename', body: { name: 'People' } },
    ]);
  });

  it('says where an imported PLS file is wrong', async () => {
    const user = userEvent.setup();
    const bad = LEXICON_MESSAGES.badPls(3, 5, 'a lexeme needs a grapheme');
    interceptFetch((call) => {
      if (call.url === '/api/lexicons') {
        return jsonResponse(200, { lexicons: [], limits: { lexicons: 1, entries: 25 } });
      }
      if (call.url === '/api/lexicons/Names?default=true' && call.method === 'PUT') {
        return jsonResponse(400, { message: bad });
      }
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    const { container } = renderAt(
      '/pronunciations',
      '/pronunciations',
      <PronunciationsPage language="en" />,
    );
    await screen.findByText(/No lexicon yet/);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Names');
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(
      input,
      new File(['<lexicon/>'], 'names.pls', { type: 'application/pls+xml' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The file was not imported');
    expect(alert.textContent).toContain(bad);
  });
});
