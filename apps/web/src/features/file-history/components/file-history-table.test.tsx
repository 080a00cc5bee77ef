import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FileHistoryPage from '../../../app/routes/file-history';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { jobOf, savedFileOf } from '../../../test/saved';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

describe('File History with audiobooks (issue 19)', { timeout: 20_000 }, () => {
  it('lists finished audiobooks with the saved files, newest first; Open and Delete reach the job', async () => {
    const user = userEvent.setup();
    let jobs = [jobOf('a', 'done', '2026-11-21T08:00:00.000Z'), jobOf('b', 'running')];
    const { calls } = interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'PREMIUM' } }));
      if (call.url === '/api/file') return jsonResponse(200, [savedFileOf()]);
      if (call.url === '/api/jobs' && call.method === 'GET') return jsonResponse(200, jobs);
      if (call.url === '/api/jobs/a' && call.method === 'DELETE') {
        jobs = jobs.filter((j) => j.id !== 'a');
        return jsonResponse(200, { message: 'The job and its audio are deleted.' });
      }
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    renderAt('/file-history', '/file-history', <FileHistoryPage />);
    const table = await screen.findByRole('table', { name: 'Saved files' });
    await within(table).findByText('Book a');
    const rows = within(table).getAllByRole('row').slice(1);
    // The audiobook finished after the file was saved: it comes first. The running job is not
    // a saved file (it has no audio yet).
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      'AudiobookBook a',
      'Hello there',
    ]);
    const book = rows[0] as HTMLElement;
    expect(within(book).getByText('56.27 MB')).toBeTruthy();
    expect(within(book).getByText('2:03:04')).toBeTruthy();
    expect(within(book).getByText('Amy')).toBeTruthy();
    expect(
      within(book).getByRole('link', { name: 'Open the audiobook Book a' }).getAttribute('href'),
    ).toBe('/documents?job=a');
    expect(
      within(rows[1] as HTMLElement)
        .getByRole('link', { name: /^Open the file saved/ })
        .getAttribute('href'),
    ).toBe('/convertor?id=file-1');

    await user.click(within(book).getByRole('button', { name: 'Delete the audiobook Book a' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Book a')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/jobs/a')).toBe(true);
    expect(calls.some((c) => c.method === 'DELETE' && c.url.startsWith('/api/file'))).toBe(false);
    expect(screen.getByText('Hello there')).toBeTruthy();
  });

  it('shows a FREE user what a plan adds instead of an empty table (issue 27)', async () => {
    interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'FREE' } }));
      if (call.url === '/api/file') return jsonResponse(200, []);
      if (call.url === '/api/jobs' && call.method === 'GET') return jsonResponse(200, []);
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    renderAt('/file-history', '/file-history', <FileHistoryPage />);
    const note = await screen.findAllByText(/Saving audio is part of the paid plans/);
    expect(note.length).toBeGreaterThan(0);
    const plans = screen.getAllByRole('link', { name: 'See the plans' });
    expect(plans[0]?.getAttribute('href')).toBe('/pricing');
  });
});
