import { ParlaClient } from '@parla/client';
import { MESSAGES, TAG_COSTS } from '@parla/contract';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectAccessible,
  expectNoPageErrors,
  useBrowser,
  visit,
  waitForApp,
} from '../harness/browser.js';
import { createUser, startServer } from '../harness/server.js';
import { newUser, setTokenCookie } from '../harness/users.js';

const session = useBrowser();

/** The anonymous visitor's per-conversion limit (the FREE plan of the server's catalogue). */
const FREE_PER_CONVERT = 1000;

async function openConvertor(page: Page, path = '/convertor'): Promise<void> {
  await visit(page, path);
  // The voice settings are ready once a voice is chosen.
  await page.getByRole('group', { name: 'Current voice' }).waitFor();
  // And the limits are known (shown as '…' until the plan or the profile has loaded).
  await page.waitForFunction(() =>
    /^[\d,]+$/.test(
      document.querySelector('[data-testid="characters-per-convert"]')?.textContent ?? '',
    ),
  );
}

/** The player's play or pause button: a conversion plays as soon as it arrives (issue 33). */
const playerButton = (page: Page) => page.getByRole('button', { name: /^(Play|Pause)$/ });

const counter = async (page: Page, which: 'used' | 'per-convert' | 'remaining') =>
  // Written the English way ('10,000'): digits only.
  Number((await page.getByTestId(`characters-${which}`).textContent())?.replace(/\D/g, ''));

async function pasteInto(page: Page, editor: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: editor }).click();
  await page.evaluate((value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    const target = document.activeElement ?? document.body;
    target.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

async function insertTag(page: Page, label: string): Promise<void> {
  await page
    .getByRole('toolbar', { name: 'Editor tools' })
    .getByRole('button', { name: `Insert ${label}` })
    .click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: `Insert ${label}` })
    .click();
}

/** Waits until all of the player's audio has arrived (it is no longer busy growing). */
async function wholeAudio(page: Page, timeout = 15_000): Promise<void> {
  await page
    .locator('[aria-busy="false"]')
    .filter({ has: page.getByTestId('waveform') })
    .waitFor({ state: 'attached', timeout });
}

/** The drawn height of each column of the waveform's canvas, as a share of its height. */
function waveformHeights(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="waveform"] canvas');
    const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
    if (!canvas || !pixels) return [];
    const heights: number[] = [];
    for (let x = 0; x < canvas.width; x += 1) {
      let drawn = 0;
      for (let y = 0; y < canvas.height; y += 1) {
        if ((pixels.data[(y * canvas.width + x) * 4 + 3] ?? 0) > 0) drawn += 1;
      }
      heights.push(drawn / canvas.height);
    }
    return heights;
  });
}

describe('the convertor page (issue 4)', () => {
  it('converts typed text, plays it, and draws its waveform', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    const editor = page.getByRole('textbox', { name: 'Text editor' });
    await editor.click();
    await page.keyboard.type('Hello from Parla. This is a test of the player.');
    expect(await counter(page, 'used')).toBe(47);
    expect(await counter(page, 'per-convert')).toBe(FREE_PER_CONVERT);
    expect(await counter(page, 'remaining')).toBe(FREE_PER_CONVERT - 47);

    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    // Issue 33: it plays as soon as it arrives, and (issue 18) the player takes the focus.
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toMatch(/^(Play|Pause)$/);
    await page.evaluate(() => document.querySelector('audio')?.pause());
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await play.waitFor();
    await wholeAudio(page);
    const heights = await waveformHeights(page);
    // The loudest bar is the canvas's full height; the bars differ (speech, not a block).
    expect(Math.max(...heights)).toBeGreaterThanOrEqual(0.95);
    expect(new Set(heights.map((h) => Math.round(h * 20))).size).toBeGreaterThan(5);

    await play.click();
    await page.waitForFunction(
      () => (document.querySelector('audio')?.currentTime ?? 0) > 0.5,
      null,
      { timeout: 15_000 },
    );
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const pausedAt = await page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);
    await page.getByRole('button', { name: 'Back 5 seconds' }).click();
    expect(await page.evaluate(() => document.querySelector('audio')?.currentTime)).toBeLessThan(
      pausedAt,
    );
    await page.getByLabel('Playback speed').selectOption('1.4');
    expect(await page.evaluate(() => document.querySelector('audio')?.playbackRate)).toBe(1.4);

    // A click on the middle of the waveform seeks to about half of the audio.
    const box = await page.getByTestId('waveform').boundingBox();
    if (!box) throw new Error('no waveform');
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const { currentTime, duration } = await page.evaluate(() => {
      const audio = document.querySelector('audio');
      return { currentTime: audio?.currentTime ?? 0, duration: audio?.duration ?? 0 };
    });
    expect(Math.abs(currentTime - duration / 2)).toBeLessThan(duration / 10);

    // Anonymous: no download, and the message to log in and have a plan.
    expect(await page.getByRole('button', { name: 'Download', exact: true }).count()).toBe(0);
    expect(await page.getByTestId('download-message').textContent()).toContain(
      'Log in and have a plan',
    );
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('plays to the end, restarts from the beginning, and plays and seeks by keyboard', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.type('One, two, three, four, five.');
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    await playerButton(page).waitFor({ timeout: 30_000 });
    // The whole audio is there (the waveform is drawn from it) and the player has the stored
    // file, with its duration, rather than the stream.
    await wholeAudio(page);
    await page.waitForFunction(() =>
      Number.isFinite(document.querySelector('audio')?.duration ?? Number.NaN),
    );
    await page.getByLabel('Playback speed').selectOption('2');
    const currentTime = () =>
      page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0);
    const duration = await page.evaluate(() => document.querySelector('audio')?.duration ?? 0);

    // Played to the end, Play starts again from the beginning. This comes first, before any
    // pause or seek: when playback resumes after a pause and seeks, headless chromium on this
    // machine now and then stops for good (the whole file buffered, readyState back to 2, the
    // time standing still), with mp3 and ogg alike and with the player of stop 9 too.
    // It played on its own as it arrived (issue 33).
    await page.waitForFunction(() => document.querySelector('audio')?.ended === true, null, {
      timeout: 30_000,
    });
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(await currentTime()).toBeLessThan(duration / 2);

    // Space on the waveform plays and pauses; Home goes to the start, the arrows seek 5 s.
    const waveform = page.getByRole('slider', { name: 'Seek' });
    await waveform.focus();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Play', exact: true }).waitFor();
    await page.keyboard.press('Home');
    expect(await currentTime()).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await currentTime()).toBeCloseTo(Math.min(5, duration), 1);
    await page.keyboard.press('Home');
    expect(await currentTime()).toBe(0);
    expectNoPageErrors(page);
  });

  it('deducts each tag from the remaining characters and refuses one that does not fit', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.type('word');
    const lengths: Record<string, number> = {
      pause: TAG_COSTS.pause,
      speed: TAG_COSTS.speed,
      volume: TAG_COSTS.volume,
      pitch: TAG_COSTS.pitch,
      emphasis: TAG_COSTS.emphasis,
      // `<say-as interpret-as="characters"></say-as>` and `<effect name="whispered"></effect>`:
      // SPEC's costs (45, 23) are what is checked; the counter counts what is sent.
      'say as': 43,
      'voice effect': 34,
    };
    for (const [label, length] of Object.entries(lengths)) {
      const before = await counter(page, 'remaining');
      await page.keyboard.press('Control+a');
      await insertTag(page, label);
      expect(await counter(page, 'remaining'), label).toBe(before - length);
    }
    // Each tag is a chip in the Text tab and markup in the SSML tab: the same document.
    await page.getByRole('tab', { name: 'SSML' }).click();
    await page.waitForURL((url) => url.pathname === '/convertor/ssml');
    const ssml = await page.getByRole('textbox', { name: 'SSML editor' }).textContent();
    for (const tag of [
      '<break time="1s" />',
      '<prosody rate="medium">',
      '<emphasis level="strong">',
      '<say-as interpret-as="characters">',
      '</effect>',
    ]) {
      expect(ssml).toContain(tag);
    }
    await expectAccessible(page);
    await page.getByRole('tab', { name: 'Text' }).click();
    // A chip's value is edited in place.
    await page.getByRole('button', { name: 'Speed medium, edit' }).click();
    await page.getByRole('dialog').getByLabel('Speed', { exact: true }).selectOption('fast');
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Speed fast, edit' }).waitFor();
    await page.getByRole('tab', { name: 'SSML' }).click();
    await page.getByText('<prosody rate="fast">').first().waitFor();
    await page.getByRole('tab', { name: 'Text' }).click();
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.press('Control+End');

    // Fill up to 10 characters short of the limit: a pause (19) no longer fits.
    const remaining = await counter(page, 'remaining');
    await pasteInto(page, 'Text editor', 'x'.repeat(remaining - 10));
    expect(await counter(page, 'remaining')).toBe(10);
    await insertTag(page, 'pause');
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: MESSAGES.editor.notEnoughCharacters })
        .count(),
    ).toBe(1);
    expect(await counter(page, 'remaining')).toBe(10);
    expectNoPageErrors(page);
  });

  it('wraps the selected words as one unit, keeps them selected and removes a tag whole (issue 18)', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.type('say hello there');
    const used = await counter(page, 'used');
    // Select "hello".
    await page.keyboard.press('End');
    for (let i = 0; i < ' there'.length; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'hello'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await insertTag(page, 'speed');
    expect(await counter(page, 'used')).toBe(used + TAG_COSTS.speed);
    // One chip and its end mark around the words, no "/Speed" chip; the words stay selected.
    await page.getByRole('button', { name: 'Speed medium, edit' }).waitFor();
    expect(await page.getByRole('img', { name: 'End of Speed' }).count()).toBe(1);
    expect(await page.getByText('/Speed').count()).toBe(0);
    expect(await page.locator('[class*="wrapped"]').first().textContent()).toBe('hello');
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('hello');
    // The next tag wraps the same words.
    await insertTag(page, 'emphasis');
    expect(await counter(page, 'used')).toBe(used + TAG_COSTS.speed + TAG_COSTS.emphasis);

    // Without a selection, a tag with content is not inserted (it would cost and do nothing).
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.press('End');
    await insertTag(page, 'volume');
    await page
      .getByRole('alert')
      .getByText('Select the words this tag applies to first.')
      .waitFor();
    expect(await counter(page, 'used')).toBe(used + TAG_COSTS.speed + TAG_COSTS.emphasis);

    // Removing the chip removes its end too, and keeps the words.
    await page.getByRole('button', { name: 'Speed medium, edit' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove Speed' }).click();
    expect(await counter(page, 'used')).toBe(used + TAG_COSTS.emphasis);
    expect(await page.getByRole('img', { name: 'End of Speed' }).count()).toBe(0);
    await page.getByRole('tab', { name: 'SSML' }).click();
    await page.waitForURL((url) => url.pathname === '/convertor/ssml');
    expect(await page.getByRole('textbox', { name: 'SSML editor' }).textContent()).toBe(
      'say <emphasis level="strong">hello</emphasis> there',
    );
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('cuts a paste to the per-conversion limit and refuses typing past it, in both tabs', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    // The sample text (issue 33) taken away, an empty text converts nothing: no request
    // leaves the page.
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    const conversions: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/convertor'))
        conversions.push(request.url());
    });
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    // Issue 18: it says why.
    await page
      .getByTestId('empty-notice')
      .getByText('There is nothing to convert yet: type or paste a text first.')
      .waitFor();
    await page.waitForTimeout(300);
    expect(conversions).toEqual([]);

    await pasteInto(page, 'Text editor', 'a'.repeat(FREE_PER_CONVERT + 500));
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);
    expect(await counter(page, 'remaining')).toBe(0);
    // Issue 18: the cut is told, with the plans, and the counter flags the limit in words.
    const cut = page.getByTestId('cut-notice');
    await cut.getByText('Kept 1,000 of 1,500 characters', { exact: false }).waitFor();
    expect(await cut.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
    await page.getByTestId('remaining-warning').getByText('Limit reached').waitFor();
    expect(await page.getByTestId('empty-notice').textContent()).toBe('');
    await page.keyboard.type('more');
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);
    // Undo takes the paste back.
    await page.keyboard.press('Control+z');
    expect(await counter(page, 'used')).toBe(0);
    await page.keyboard.press('Control+Shift+z');
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);

    await openConvertor(page, '/convertor/ssml');
    await pasteInto(page, 'SSML editor', 'b'.repeat(FREE_PER_CONVERT + 1));
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);
    await page.keyboard.type('c');
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);

    // A TXT upload loses its new lines and tabs and is cut to the limit.
    await page.locator('input[type="file"]').setInputFiles({
      name: 'speech.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(`First line\r\nsecond\tline\n${'z'.repeat(2 * FREE_PER_CONVERT)}`),
    });
    await expect
      .poll(() => page.getByRole('textbox', { name: 'SSML editor' }).textContent())
      .toMatch(/^First line second line z+$/);
    expect(await counter(page, 'used')).toBe(FREE_PER_CONVERT);
    expectNoPageErrors(page);
  });

  it('shows the server SSML error at its line and column', async () => {
    // In the dark scheme, so that axe checks the SSML editor's colours there too.
    const page = await session.newPage({ colorScheme: 'dark' });
    await openConvertor(page, '/convertor/ssml');
    await page.getByRole('textbox', { name: 'SSML editor' }).click();
    // Completion offers the supported elements and their attribute values.
    await page.keyboard.type('<say');
    await page.getByRole('option', { name: 'say-as' }).waitFor();
    // CodeMirror ignores Enter in the first 75 ms of a list (its interactionDelay, so that a
    // list appearing under a typing hand is not accepted by accident); a person is slower.
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
    await page.keyboard.type(' interpret-as="tel');
    await page.getByRole('option', { name: '"telephone"' }).waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    // The editor closes the tag itself; the level is what is wrong.
    await page.keyboard.type('Hello\n<emphasis level="loud">there');
    expect(await page.getByRole('textbox', { name: 'SSML editor' }).textContent()).toContain(
      '</emphasis>',
    );
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    const error = page.getByTestId('convert-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toMatch(/^2:1: emphasis level "loud" is not one of/);
    await page.locator('.cm-lintRange-error').waitFor();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('applies the sample-rate rules of SPEC §5', async () => {
    const page = await session.newPage();
    await openConvertor(page);
    const engine = page.getByLabel('Engine', { exact: true });
    // Format and sample rate are under "Advanced" (issue 33).
    await page.getByRole('button', { name: 'Advanced' }).click();
    const format = page.getByLabel('Format', { exact: true });
    const rate = page.getByLabel('Sample rate', { exact: true });
    const enabledRates = () =>
      rate
        .locator('option')
        .evaluateAll((options) =>
          options
            .filter((o) => !(o as HTMLOptionElement).disabled)
            .map((o) => Number((o as HTMLOptionElement).value)),
        );
    const neuralAvailable = !(await engine.locator('option[value="neural"]').isDisabled());
    if (neuralAvailable) {
      await engine.selectOption('neural');
      expect(Number(await rate.inputValue())).toBe(48000);
      expect(await enabledRates()).toEqual([48000, 44100, 24000, 22050, 16000, 8000]);
    }
    await engine.selectOption('standard');
    expect(Number(await rate.inputValue())).toBe(24000);
    expect(await enabledRates()).toEqual([24000, 22050, 16000, 8000]);
    await rate.selectOption('8000');
    await format.selectOption('wav');
    expect(Number(await rate.inputValue())).toBe(16000);
    expect(await enabledRates()).toEqual([16000]);
    await format.selectOption('ogg');
    expect(Number(await rate.inputValue())).toBe(24000);
    expectNoPageErrors(page);
  });

  it('plays a 10,000-character text while it is still being rendered (issue 14)', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await openConvertor(page);
    await expect.poll(() => counter(page, 'per-convert')).toBe(10_000);
    const sentence = 'Streaming lets you hear the start while the rest is rendered. ';
    const text = sentence.repeat(Math.floor(10_000 / sentence.length)).trim();
    await pasteInto(page, 'Text editor', text);
    expect(await counter(page, 'used')).toBe(text.length);

    // When a transfer of the audio (the element's, or the player's own read of it) has ended:
    // the render's end. Chromium reports a fetch whose body a page reads as a stream, to its
    // end, as failed (net::ERR_ABORTED), never as finished: both say the transfer is over.
    let audioFinished = false;
    const transferEnded = (request: Request) => {
      if (request.url().includes('/api/convertor/audio/')) audioFinished = true;
    };
    page.on('requestfinished', transferEnded);
    page.on('requestfailed', transferEnded);
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    // It plays by itself as soon as the first audio arrives (issue 33).
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(
      () => (document.querySelector('audio')?.currentTime ?? 0) > 1,
      null,
      { timeout: 15_000 },
    );
    // Playing, and the audio is still arriving: it started before its rendering could end.
    expect(audioFinished).toBe(false);
    expect(await page.getByTestId('player-error').count()).toBe(0);

    // Once all of it is there, the waveform is drawn and the real duration shown.
    await wholeAudio(page, 90_000);
    await expect.poll(() => audioFinished).toBe(true);
    expect(await page.getByTestId('player-error').count()).toBe(0);
    const shown = await page.getByText(/^\d+:\d{2} \/ \d+:\d{2}$/).textContent();
    const total = shown?.split(' / ')[1] ?? '';
    // About 150 sentences: well over five minutes of speech.
    expect(Number(total.split(':')[0])).toBeGreaterThanOrEqual(5);
    expectNoPageErrors(page);
  });

  it('says so when a stream breaks off on the server, and keeps the charge of a rendering stopped at its time budget (issues 14, 28)', async () => {
    // A server whose renderings may take 3 s, on espeak-ng's WebAssembly build (its speed does
    // not depend on the machine's libraries), and a plan that takes 40,000 characters at once:
    // a text of distinct sentences (none from the sentence cache) that long needs several times
    // the budget on any machine, while its first sentences play within a fraction of it once
    // the worker threads are warm. Both threads are warmed first (a thread's first start loads
    // espeak-ng, and would spend the budget of the conversion it starts with).
    const strict = await startServer({
      SPEECH_RENDER_TIMEOUT_SECONDS: '3',
      PARLA_SPEECH_BACKEND: 'wasm',
      PLAN_PREMIUM_CHARACTERS_PER_CONVERT: '40000',
    });
    try {
      const user = await createUser(strict.env, {
        email: `e2e-broken-${process.pid}-${Date.now()}@example.com`,
        password: 'correct-horse-1',
        plan: 'PREMIUM',
      });
      const account = new ParlaClient({ baseUrl: strict.baseUrl, token: user.token });
      const script = new ParlaClient({
        baseUrl: strict.baseUrl,
        apiKey: (await account.createApiKey('e2e warm-up')).key,
      });
      for (let attempt = 0; attempt < 5; attempt++) {
        const warmed = await Promise.allSettled(
          ['Warm.', 'Up.'].map((text) => script.speak({ text, format: 'wav' })),
        );
        if (warmed.every((result) => result.status === 'fulfilled')) break;
      }
      const page = await session.newPage();
      await setTokenCookie(page, user.token, strict.baseUrl);
      await page.goto(`${strict.baseUrl}/convertor`);
      await waitForApp(page);
      await expect.poll(() => counter(page, 'per-convert')).toBe(40_000);
      const allowance = () => page.getByText(/^Plan allowance left:/).textContent();
      const before = await allowance();
      const text = Array.from(
        { length: 700 },
        (_, i) => `Sentence ${i + 1} of a conversion not allowed to finish on this server.`,
      )
        .join(' ')
        .slice(0, 40_000)
        .trim();
      await pasteInto(page, 'Text editor', text);
      await page.getByRole('button', { name: 'Convert', exact: true }).click();
      await playerButton(page).waitFor({ timeout: 15_000 });
      // Never a silent stop: the player says what happened…
      await page
        .getByTestId('player-error')
        .getByText('The audio stopped: its conversion could not finish.', { exact: false })
        .waitFor({ timeout: 30_000 });
      // …and a rendering stopped at its time budget is spent work, not a free retry
      // (issue 28, docs/decisions/034): the counter shows the charge kept.
      const left = async () => Number((await allowance())?.replace(/\D/g, ''));
      const had = Number(before?.replace(/\D/g, ''));
      await expect.poll(left, { timeout: 10_000 }).toBe(had - text.length);
      expectNoPageErrors(page);
    } finally {
      await strict.stop();
    }
  });

  it.each([
    ['FREE', 'Buy a plan', 1000],
    ['PREMIUM', null, 10_000],
  ] as const)('download for a %s user', async (plan, message, perConvert) => {
    const user = await newUser(plan);
    const page = await session.newPage({ acceptDownloads: true });
    await setTokenCookie(page, user.token, session.baseUrl);
    await openConvertor(page);
    await page.getByRole('banner').getByRole('button', { name: user.email }).waitFor();
    // The plan's per-conversion limit, and its allowance.
    await expect.poll(() => counter(page, 'per-convert')).toBe(perConvert);
    expect(await page.getByText('Plan allowance left:').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.type('Download me.');
    await page.getByRole('button', { name: 'Convert', exact: true }).click();
    await playerButton(page).waitFor({ timeout: 30_000 });
    if (message) {
      expect(await page.getByTestId('download-message').textContent()).toContain(message);
      expect(await page.getByRole('button', { name: 'Download', exact: true }).count()).toBe(0);
    } else {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download', exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^parla-[\w-]+-\d{4}-\d{2}-\d{2}-\d{4}\.mp3$/);
    }
    await expectAccessible(page);
    expectNoPageErrors(page);
  });
});
