import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

/** Converts a text and saves it as the Save button does: audio, then SSML. */
async function saveFile(token: string): Promise<string> {
  const authorization = `Bearer ${token}`;
  const settings = {
    engine: 'standard',
    voice_id: 'standard:en-us',
    language_code: 'en-us',
    text: '<speak>Kept for thirty days.</speak>',
    output_format: 'mp3',
    sample_rate: 24000,
    effect: null,
    master_speed: 0,
    master_volume: 0,
    master_pitch: 0,
    voice_effects: [],
  };
  const converted = await fetch(`${session.baseUrl}/api/convertor`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', 'x-requested-with': 'parla' },
    body: JSON.stringify(settings),
  });
  const { path } = (await converted.json()) as { path: string };
  const audio = await (await fetch(`${session.baseUrl}${path}`)).blob();
  const media = new FormData();
  media.append('media', audio, 'audio.mp3');
  const query = new URLSearchParams({
    engine: 'standard',
    language: 'en-us',
    voice: 'standard:en-us',
    effect: '',
    audio_format: 'mp3',
    audio_sample_rate: '24000',
    master_speed: '0',
    master_volume: '0',
    master_pitch: '0',
  });
  const saved = await fetch(`${session.baseUrl}/api/file/media?${query}`, {
    method: 'POST',
    headers: { authorization, 'x-requested-with': 'parla' },
    body: media,
  });
  expect(saved.status).toBe(200);
  const { _id } = (await saved.json()) as { _id: string };
  const ssml = new FormData();
  ssml.append('ssml', new Blob([settings.text]), 'text.ssml');
  const text = await fetch(`${session.baseUrl}/api/file/ssml/${_id}`, {
    method: 'POST',
    headers: { authorization, 'x-requested-with': 'parla' },
    body: ssml,
  });
  expect(text.status).toBe(200);
  return _id;
}

describe('file history (SPEC §2 File History, §4 File deletion)', () => {
  it('is a list of cards on a phone, each with the start of its text and its buttons in reach', async () => {
    const user = await newUser('BASIC');
    await saveFile(user.token);
    const page = await session.newPage({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/file-history');
    const cards = page.getByRole('list', { name: 'Saved files' });
    await cards.getByText('Kept for thirty days.').waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    for (const name of [/^Open the file saved/, /^Delete the file saved/]) {
      const box = await cards
        .getByRole(name.source.includes('Open') ? 'link' : 'button', { name })
        .boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    }
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('lists a saved file after skeleton rows, opens it in the convertor, and deletes it', async () => {
    const user = await newUser('BASIC');
    const id = await saveFile(user.token);
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await page.goto('/file-history');
    await page.getByTestId('file-skeleton-row').first().waitFor();
    await page.getByRole('heading', { level: 1, name: 'File History' }).waitFor();
    await page.getByText('Here are your saved files!').waitFor();
    await page.getByText('Your files will be deleted after 30 days!').waitFor();
    const table = page.getByRole('table', { name: 'Saved files' });
    for (const column of ['Size', 'Time', 'Language', 'Voice', 'Save Date']) {
      await table.getByRole('columnheader', { name: column }).waitFor();
    }
    const open = table.getByRole('link', { name: /^Open the file saved/ });
    await open.waitFor();
    expect(await page.getByTestId('file-skeleton-row').count()).toBe(0);
    expect(await open.getAttribute('href')).toBe(`/convertor?id=${id}`);
    await table.getByText(/^\d+\.\d{2} KB$/).waitFor();
    await expectAccessible(page);

    await table.getByRole('button', { name: /^Delete the file saved/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this file?').waitFor();
    // Let the opening transition end: axe measures contrast on the final colours.
    await page.waitForTimeout(500);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await open.waitFor({ state: 'detached' });
    await page.getByText('No saved files yet.').waitFor();
    const list = await fetch(`${session.baseUrl}/api/file`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(await list.json()).toEqual([]);
    expectNoPageErrors(page);
  });

  it.each([
    ['1440 px', { viewport: { width: 1440, height: 900 } }],
    ['360 px', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }],
  ])(
    "plays a saved file in the app's player and downloads it, at %s (issue 33 item 5)",
    async (_, options) => {
      const user = await newUser('BASIC');
      const id = await saveFile(user.token);
      const page = await session.newPage({ ...options, acceptDownloads: true });
      await setTokenCookie(page, user.token, session.baseUrl);
      await visit(page, '/file-history');
      if (options.viewport.width < 400) {
        // The row's buttons are 44 px touch targets on a phone too (DESIGN.md).
        const row = page
          .getByRole('button', { name: /^(Play|Download|Delete) the file saved/ })
          .or(page.getByRole('link', { name: /^Open the file saved/ }));
        expect(await row.count()).toBe(4);
        for (const target of await row.all()) {
          const box = await target.boundingBox();
          expect(box && Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
        }
      }
      await page.getByRole('button', { name: /^Play the file saved/ }).click();
      const close = page.getByRole('button', { name: /^Close player of the file saved/ });
      expect(await close.getAttribute('aria-expanded')).toBe('true');
      const player = page.getByRole('group', { name: /^Player of the file saved/ });
      await player.getByRole('slider', { name: 'Seek' }).waitFor();
      // It plays as soon as the audio has come (Play was a click).
      await page.waitForFunction(() => (document.querySelector('audio')?.played.length ?? 0) > 0);
      // Its waveform is drawn, its length known: the saved file's own.
      await page.waitForFunction(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="waveform"] canvas');
        const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
        return pixels?.data.some((value, index) => index % 4 === 3 && value > 0) ?? false;
      });
      await expect
        .poll(() => player.getByTestId('player-time').textContent())
        .toMatch(/ \/ 0:0[1-9]$/);
      if (options.viewport.width < 400) {
        // 44 px touch targets on a phone (DESIGN.md).
        const targets = [
          ...(await player.getByRole('button').all()),
          player.getByRole('combobox', { name: 'Playback speed' }),
        ];
        for (const target of targets) {
          const box = await target.boundingBox();
          expect(box && Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
        }
      }
      await expectAccessible(page);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /^Download the file saved/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`parla-${id}.mp3`);
      const saved = await fetch(`${session.baseUrl}/api/file/media/${id}`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      const path = await download.path();
      const { readFile } = await import('node:fs/promises');
      expect(Buffer.compare(await readFile(path), Buffer.from(await saved.arrayBuffer()))).toBe(0);
      // Play again closes it.
      await close.click();
      await player.waitFor({ state: 'detached' });
      expectNoPageErrors(page);
    },
  );

  it('a FREE user is told that saving files needs a paid plan', async () => {
    const user = await newUser('FREE');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/file-history');
    // Their (empty) list, and what a plan adds in its place (issue 27: no refusal).
    await page
      .getByText(/Saving audio is part of the paid plans/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: 'See the plans' }).first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

describe('saving from the convertor and opening again (SPEC §2 Convertor, §4 Convert)', () => {
  it('a paid user saves a conversion, finds it in File History and reopens it with its audio', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/convertor');
    const editor = page.getByRole('textbox', { name: 'Text editor' });
    await editor.click();
    await page.keyboard.type('Saved from the convertor page.');
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await save.waitFor({ timeout: 30_000 });
    await save.click();
    await page.getByRole('status').filter({ hasText: /saved/i }).waitFor();

    await visit(page, '/file-history');
    const open = page.getByRole('link', { name: /^Open the file saved/ });
    await open.click();
    await page.waitForURL((url) => url.pathname === '/convertor' && url.searchParams.has('id'));
    // The text, and the audio ready to play without converting again.
    await page
      .getByRole('textbox', { name: 'Text editor' })
      .getByText('Saved from the convertor page.')
      .waitFor();
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await play.waitFor({ timeout: 15_000 });
    await play.click();
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0), {
        timeout: 15_000,
      })
      .toBeGreaterThan(0.2);

    // Saving again overwrites the same file rather than adding one.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /saved/i }).waitFor();
    const list = await fetch(`${session.baseUrl}/api/file`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(((await list.json()) as unknown[]).length).toBe(1);
    expectNoPageErrors(page);
  });

  it('an id that is not yours opens the empty convertor', async () => {
    const owner = await newUser('BASIC');
    const id = await saveFile(owner.token);
    const stranger = await newUser('BASIC');
    const page = await session.newPage();
    await setTokenCookie(page, stranger.token, session.baseUrl);
    await page.goto(`/convertor?id=${id}`);
    await page.waitForURL((url) => url.pathname === '/convertor' && !url.searchParams.has('id'));
    await page.getByRole('textbox', { name: 'Text editor' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Text editor' }).textContent()).not.toContain(
      'Kept for thirty days.',
    );
  });
});
