import type { SpeechMark } from '@parla/contract';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoPageErrors, useBrowser, visit } from '../harness/browser.js';
import { newUser, setTokenCookie } from '../harness/users.js';

/**
 * Issue 14, item 3: the word being heard is highlighted in the read-along view and in the
 * Text tab, at the times of the speech marks; a click and the keyboard move playback.
 */

const session = useBrowser();

const TEXT = 'Seven quick foxes ran home. Then nine lazy dogs slept. Finally everyone went quiet.';

/** Opens the convertor, converts TEXT, and answers its speech marks' words. */
async function converted(page: Page): Promise<SpeechMark[]> {
  await visit(page, '/convertor');
  await page.getByRole('group', { name: 'Current voice' }).waitFor();
  await page.getByRole('textbox', { name: 'Text editor' }).click();
  await page.keyboard.type(TEXT);
  const [answer] = await Promise.all([
    page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/convertor' &&
        response.request().method() === 'POST',
    ),
    page.getByRole('button', { name: 'Convert', exact: true }).click(),
  ]);
  const result = (await answer.json()) as { marks_path: string };
  expect(result.marks_path).toMatch(/^\/api\/convertor\/marks\//);
  await page.getByRole('listbox', { name: 'Read-along' }).waitFor({ timeout: 30_000 });
  // The audio plays as it arrives (issue 33); the tests drive it from a stop.
  await page.evaluate(() => document.querySelector('audio')?.pause());
  return (await wholeMarks(page, result.marks_path)).filter((mark) => mark.type === 'word');
}

/** The whole set of marks at `path` (while it renders, the answer is the words heard so far). */
async function wholeMarks(page: Page, path: string): Promise<SpeechMark[]> {
  const ask = () =>
    page.evaluate(async (at) => {
      const response = await fetch(at);
      return {
        complete: response.headers.get('X-Parla-Marks-Complete'),
        marks: (await response.json()) as SpeechMark[],
      };
    }, path);
  await expect.poll(async () => (await ask()).complete, { timeout: 30_000 }).toBe('true');
  return (await ask()).marks;
}

const readAlong = (page: Page) => page.getByRole('listbox', { name: 'Read-along' });
const heard = (page: Page) => readAlong(page).getByRole('option', { selected: true }).textContent();
const inEditor = (page: Page) =>
  page.getByRole('textbox', { name: 'Text editor' }).locator('[data-spoken]').textContent();
const currentTime = (page: Page) =>
  page.evaluate(() => document.querySelector('audio')?.currentTime ?? -1);

describe('the read-along (issue 14)', () => {
  it('highlights the word heard at three points of the audio, in the view and the editor', async () => {
    const page = await session.newPage();
    const words = await converted(page);
    expect(words.map((word) => word.value)).toEqual(TEXT.match(/[A-Za-z]+/g));
    for (const index of [1, 6, 11]) {
      const word = words[index] as SpeechMark;
      // Into the middle of the word: seek the audio there, as the waveform does.
      const next = words[index + 1] as SpeechMark;
      const at = (word.time + Math.min(next.time - word.time, 200) / 2) / 1000;
      await page.evaluate((time) => {
        const audio = document.querySelector('audio');
        if (audio) audio.currentTime = time;
      }, at);
      await expect.poll(() => heard(page)).toBe(word.value);
      await expect.poll(() => inEditor(page)).toBe(word.value);
    }
    // While it plays, the highlight follows the audio's clock (at double speed too).
    await page.getByLabel('Playback speed').selectOption('2');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => !document.querySelector('audio')?.paused);
    const sample = await page.evaluate(() => {
      const audio = document.querySelector('audio') as HTMLAudioElement;
      return new Promise<{ time: number; word: string | null }>((resolve) => {
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            resolve({
              time: audio.currentTime,
              word:
                document.querySelector('[role="listbox"] [aria-selected="true"]')?.textContent ??
                null,
            }),
          ),
        );
      });
    });
    const expected = words.filter((word) => word.time <= sample.time * 1000).at(-1);
    const after = words[words.indexOf(expected as SpeechMark) + 1];
    // The frame's word is the one at its time, or the next one if the clock moved meanwhile.
    expect([expected?.value, after?.value]).toContain(sample.word);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expectAccessible(page);
    expectNoPageErrors(page);
  });

  it('highlights the words heard from the first second, while the audio still streams (issue 33 item 5)', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    await visit(page, '/convertor');
    await page.getByRole('group', { name: 'Current voice' }).waitFor();
    // Seconds of rendering: distinct sentences, none from the sentence cache.
    const text = Array.from(
      { length: 120 },
      (_, i) => `Sentence ${i + 1} is highlighted while the rest of it renders.`,
    ).join(' ');
    await page.getByRole('textbox', { name: 'Text editor' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(text);
    // When a transfer of the audio has ended (chromium reports a fetch read to its end as a
    // stream as failed, net::ERR_ABORTED: either says it is over).
    let audioEnded = false;
    const ended = (request: Request) => {
      if (request.url().includes('/api/convertor/audio/')) audioEnded = true;
    };
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    const answers: (string | undefined)[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/convertor/marks/'))
        answers.push(response.headers()['x-parla-marks-complete']);
    });
    await page.getByRole('button', { name: 'Convert', exact: true }).click();

    // It plays as the audio arrives, and the word heard is highlighted…
    const first = readAlong(page).getByRole('option', { selected: true });
    await first.waitFor({ timeout: 30_000 });
    // …before the audio has all arrived: its rendering has not ended.
    expect(audioEnded).toBe(false);
    const player = page.locator('[aria-busy]').filter({ has: page.getByTestId('waveform') });
    expect(await player.getAttribute('aria-busy')).toBe('true');
    expect(answers[0]).toBe('false');
    expect(text.split(' ').slice(0, 20)).toContain(await first.textContent());

    // Once it has all arrived, the read-along has every word.
    await player.and(page.locator('[aria-busy="false"]')).waitFor({ timeout: 90_000 });
    await expect.poll(() => answers.at(-1), { timeout: 10_000 }).toBe('true');
    await expect
      .poll(() => readAlong(page).getByRole('option').count())
      .toBe(text.split(' ').length);
    expectNoPageErrors(page);
  });

  it('plays from a clicked word, and moves word by word with Alt+arrows', async () => {
    const page = await session.newPage();
    const words = await converted(page);
    const dogs = words.find((word) => word.value === 'dogs') as SpeechMark;
    await readAlong(page).getByRole('option', { name: 'dogs', exact: true }).click();
    await expect.poll(() => currentTime(page)).toBeCloseTo(dogs.time / 1000, 2);
    await expect.poll(() => heard(page)).toBe('dogs');
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => heard(page)).toBe('slept');
    const slept = words.find((word) => word.value === 'slept') as SpeechMark;
    expect(await currentTime(page)).toBeCloseTo(slept.time / 1000, 2);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('slept');
    await page.keyboard.press('Alt+ArrowLeft');
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(() => heard(page)).toBe('lazy');
    expectNoPageErrors(page);
  });

  it('offers the subtitles as .srt and .vtt to a paid user', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage({ acceptDownloads: true });
    await setTokenCookie(page, user.token, session.baseUrl);
    await converted(page);
    const [srt] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Subtitles (.srt)' }).click(),
    ]);
    expect(srt.suggestedFilename()).toMatch(/^parla-[\w-]+-\d{4}-\d{2}-\d{2}-\d{4}\.srt$/);
    const [vtt] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Subtitles (.vtt)' }).click(),
    ]);
    expect(vtt.suggestedFilename()).toMatch(/\.vtt$/);
    expectNoPageErrors(page);
  });

  it('keeps the marks of a saved file: it opens with its read-along', async () => {
    const user = await newUser('PREMIUM');
    const page = await session.newPage();
    await setTokenCookie(page, user.token, session.baseUrl);
    const words = await converted(page);
    const [saved] = await Promise.all([
      page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname.startsWith('/api/file/marks/') &&
          response.request().method() === 'PUT',
      ),
      page.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(saved.status()).toBe(200);
    const id = new URL(saved.url()).pathname.split('/').at(-1);
    await page.getByText('Saved to your file history.').waitFor();

    await visit(page, `/convertor?id=${id}`);
    await readAlong(page).waitFor({ timeout: 30_000 });
    const options = readAlong(page).getByRole('option');
    expect(await options.allTextContents()).toEqual(words.map((word) => word.value));
    const home = words.find((word) => word.value === 'home') as SpeechMark;
    await readAlong(page).getByRole('option', { name: 'home', exact: true }).click();
    await expect.poll(() => currentTime(page)).toBeCloseTo(home.time / 1000, 2);
    await expect.poll(() => inEditor(page)).toBe('home');
    await expectAccessible(page);
    expectNoPageErrors(page);
  });
});
