import type { DocumentPreview, Profile } from '@parla/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import DocumentsPage from '../../../app/routes/documents';
import { profileOf } from '../../../test/profile';
import { interceptFetch, jsonResponse, renderAt } from '../../../test/render';
import { jobOf } from '../../../test/saved';
import { signedInForEachTest } from '../../../test/session';

signedInForEachTest();

const PREVIEW: DocumentPreview = {
  title: 'Tales of the Sea',
  source: 'epub',
  characters: 600,
  chapters: [
    { index: 0, title: 'The Harbour', characters: 200, excerpt: 'Boats came in at dawn.' },
    { index: 1, title: 'The Storm', characters: 300, excerpt: 'By noon the sky…' },
    { index: 2, title: 'The Return', characters: 100, excerpt: 'A week later…' },
  ],
};

const VOICES = [
  {
    language_name: 'English (US)',
    language_code: 'en-us',
    voices: [
      {
        id: 'standard:en-us',
        name: 'English (US) – Male 1',
        gender: 'male',
        effects: [],
        engine: 'standard',
        capabilities: { pitch: true, emphasis: true },
      },
    ],
  },
];

/** The API as the page uses it; answers the form data of POST /jobs through `started`. */
function serve(profile: Profile) {
  const started: FormData[] = [];
  const { spy } = interceptFetch((call) => {
    if (call.url === '/api/account/profile') return jsonResponse(200, profile);
    if (call.url === '/api/jobs' && call.method === 'GET') return jsonResponse(200, []);
    if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
    if (call.url === '/api/jobs/preview') return jsonResponse(200, PREVIEW);
    if (call.url === '/api/jobs' && call.method === 'POST') {
      return jsonResponse(202, { id: 'job-1', status: 'queued' });
    }
    return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
  });
  const formOf = () => {
    for (const [input, init] of spy.mock.calls) {
      if (String(input) === '/api/jobs' && init?.method === 'POST')
        started.push(init.body as FormData);
    }
    return started.at(-1);
  };
  return { formOf };
}

const book = () => new File(['not read here: the preview is answered'], 'tales.epub');

describe('the Documents page (issue 19)', { timeout: 20_000 }, () => {
  it('shows the chapters and their cost, and starts a job with those kept, renamed', async () => {
    const user = userEvent.setup();
    const { formOf } = serve(profileOf({ plan: { type: 'PREMIUM', count_characters: 450 } }));
    const { container } = renderAt('/documents', '/documents', <DocumentsPage />);
    await screen.findByText('No audiobooks yet.');
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, book());
    await screen.findByRole('textbox', { name: 'Title of chapter 3' });
    // All three kept: 600 characters, more than the 450 left; Start waits.
    expect(screen.getByText('600 characters; 450 left on your plan.')).toBeTruthy();
    const start = screen.getByRole('button', { name: 'Start the audiobook' });
    expect(start.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Keep The Storm' }));
    expect(screen.getByText('300 characters; 450 left on your plan.')).toBeTruthy();
    const third = screen.getByRole('textbox', { name: 'Title of chapter 3' });
    await user.clear(third);
    await user.type(third, 'Home Again');
    await waitFor(() => expect(start.hasAttribute('disabled')).toBe(false));
    await user.click(start);
    await screen.findByText(/^Started\./);
    const form = formOf();
    expect(form?.get('chapters')).toBe(
      JSON.stringify([
        { index: 0, title: 'The Harbour' },
        { index: 2, title: 'Home Again' },
      ]),
    );
    expect(form?.get('output_format')).toBe('mp3');
    expect((form?.get('document') as File | null)?.name).toBe('tales.epub');
    // As audiobooks are read unless asked otherwise: titles aloud, 1.5 s between chapters.
    expect(form?.get('speak_chapter_titles')).toBe('true');
    expect(form?.get('chapter_pause')).toBe('1.5');
  });

  it('starts a job without its chapter titles read and with a longer pause, when asked', async () => {
    const user = userEvent.setup();
    const { formOf } = serve(profileOf({ plan: { type: 'PREMIUM', count_characters: 5000 } }));
    const { container } = renderAt('/documents', '/documents', <DocumentsPage />);
    await screen.findByText('No audiobooks yet.');
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, book());
    const titles = await screen.findByRole('checkbox', { name: "Read each chapter's title aloud" });
    expect((titles as HTMLInputElement).checked).toBe(true);
    await user.click(titles);
    const pause = screen.getByRole('textbox', { name: 'Pause between chapters (seconds)' });
    await user.clear(pause);
    await user.type(pause, '3');
    await user.click(screen.getByRole('button', { name: 'Start the audiobook' }));
    await screen.findByText(/^Started\./);
    expect(formOf()?.get('speak_chapter_titles')).toBe('false');
    expect(formOf()?.get('chapter_pause')).toBe('3');
  });

  it('offers a drop zone with a button, names the file chosen, and removes it', async () => {
    const user = userEvent.setup();
    serve(profileOf({ plan: { type: 'PREMIUM' } }));
    renderAt('/documents', '/documents', <DocumentsPage />);
    const zone = await screen.findByRole('group', { name: 'Document' });
    const choose = await within(zone).findByRole('button', { name: 'Choose a file' });
    expect(zone.textContent).toContain('Drop a file here or choose one');
    // The button opens the file picker: the hidden input it holds gets the file.
    const input = zone.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, book());
    expect((await within(zone).findByTestId('document-chosen')).textContent).toBe(
      'Chosen: tales.epub',
    );
    await screen.findByRole('textbox', { name: 'Title of chapter 3' });
    await user.click(within(zone).getByRole('button', { name: 'Remove the file' }));
    expect(within(zone).queryByTestId('document-chosen')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Title of chapter 1' })).toBeNull();
    expect(document.activeElement).toBe(choose);
  });

  it('keeps the Started notice while the job moves, and takes it away when it ends', async () => {
    const user = userEvent.setup();
    let status: 'running' | 'done' | undefined;
    interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'PREMIUM' } }));
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.url === '/api/jobs/preview') return jsonResponse(200, PREVIEW);
      if (call.url === '/api/jobs' && call.method === 'POST') {
        status = 'running';
        return jsonResponse(202, { id: 'job-1', status: 'queued' });
      }
      if (call.url === '/api/jobs' && call.method === 'GET')
        return jsonResponse(200, status ? [jobOf('job-1', status)] : []);
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    const { container } = renderAt('/documents', '/documents', <DocumentsPage />);
    await screen.findByText('No audiobooks yet.');
    const input = container.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, book());
    await user.click(await screen.findByRole('button', { name: 'Start the audiobook' }));
    await screen.findByText(/^Started\./);
    // Listed and converting: the notice stays.
    await screen.findByText('Converting');
    expect(screen.getByText(/^Started\./)).toBeTruthy();
    status = 'done';
    await screen.findByText('Ready', undefined, { timeout: 5000 });
    expect(screen.queryByText(/^Started\./)).toBeNull();
  });

  it('tells a FREE user that audiobooks are part of the paid plans, with no file to choose', async () => {
    serve(profileOf());
    const { container } = renderAt('/documents', '/documents', <DocumentsPage />);
    await screen.findByText('Audiobooks are part of the paid plans.');
    expect(screen.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
    expect(container.querySelector('input[type="file"]')).toBeNull();
  });
  it('opens the audiobook File History points at (?job=), and deletes an ended one after asking', async () => {
    const user = userEvent.setup();
    let jobs = [jobOf('a', 'done'), jobOf('b', 'cancelled')];
    const { calls } = interceptFetch((call) => {
      if (call.url === '/api/account/profile')
        return jsonResponse(200, profileOf({ plan: { type: 'PREMIUM' } }));
      if (call.url === '/api/convertor/voices') return jsonResponse(200, VOICES);
      if (call.url === '/api/jobs' && call.method === 'GET') return jsonResponse(200, jobs);
      if (call.url === '/api/jobs/a/audio') {
        return new Response(new Uint8Array([0xff, 0xfb, 0x90, 0x00]), {
          headers: { 'Content-Type': 'audio/mpeg' },
        });
      }
      if (call.url === '/api/jobs/b' && call.method === 'DELETE') {
        jobs = jobs.filter((j) => j.id !== 'b');
        return jsonResponse(200, { message: 'The job and its audio are deleted.' });
      }
      return jsonResponse(404, { message: `unexpected ${call.method} ${call.url}` });
    });
    renderAt('/documents?job=a', '/documents', <DocumentsPage />);
    // Its player opens by itself (the audio is asked for); the other job's does not.
    await waitFor(() => expect(calls.some((c) => c.url === '/api/jobs/a/audio')).toBe(true));
    const [first, second] = screen.getAllByTestId('job') as [HTMLElement, HTMLElement];
    expect(within(first).queryByRole('button', { name: 'Listen' })).toBeNull();

    await user.click(within(second).getByRole('button', { name: 'Delete Book b' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Delete “Book b” and its audio? This cannot be undone.'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('job')).toHaveLength(1));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/jobs/b']);
  });
});
