import type { Job, SavedFile } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FileHistoryPage from '../../../app/routes/file-history';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const FILE: SavedFile = {
  _id: 'file-1',
  size: 48_213,
  length: 65.4,
  language: 'English (US)',
  voice: 'Lena',
  updated_date: '2026-11-20T10:00:00.000Z',
  engine: 'standard',
  language_code: 'en-us',
  voice_id: 'standard:en-us',
  audio_format: 'mp3',
  audio_sample_rate: 24000,
  effect: null,
  output_format: 'mp3',
  sample_rate: 24000,
  master_speed: 0,
  master_volume: 0,
  master_pitch: 0,
  snippet: 'Hello there',
};

function job(id: string, status: Job['status'], finished: string | null): Job {
  const done = status === 'done';
  return {
    id,
    title: `Book ${id}`,
    source: 'epub',
    status,
    output_format: 'mp3',
    engine: 'neural',
    language_code: 'en-us',
    voice_id: 'neural:amy',
    language: 'English (US)',
    voice: 'Amy',
    characters: 120_000,
    progress: {
      fraction: done ? 1 : 0.4,
      characters_done: done ? 120_000 : 48_000,
      chapters_done: done ? 12 : 5,
      chapters: 12,
      seconds_left: done ? null : 300,
    },
    chapters: [],
    path: done ? `/api/jobs/${id}/audio` : null,
    duration: done ? 7_384 : null,
    size: done ? 59_000_000 : null,
    marks_path: null,
    subtitles_path: null,
    chapters_path: null,
    text_path: null,
    error: null,
    created_at: '2026-11-19T09:00:00.000Z',
    updated_at: finished ?? '2026-11-19T09:00:00.000Z',
    finished_at: finished,
  };
}

describe('File History with audiobooks (issue 19)', { timeout: 20_000 }, () => {
  it('lists finished audiobooks with the saved files, newest first; Open and Delete reach the job', async () => {
    const user = userEvent.setup();
    let jobs = [job('a', 'done', '2026-11-21T08:00:00.000Z'), job('b', 'running', null)];
    const { calls } = interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'PREMIUM' } }));
      if (call.url === '/api/file') return jsonResponse(200, [FILE]);
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
});
